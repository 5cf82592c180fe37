/**
 * What the risk check knows of the element a call will press, as the safety layer reads it
 * (client/safety/facts.ts) and as a frame reports it for its own elements (frames/protocol.ts).
 */
/** The site owner's say on what a control does (`data-pagehand-risk`, `init({ risky })`; client/safety/marks.ts). */
export type RiskMark = 'payment' | 'deletion' | 'sending' | 'personal_data' | 'none';

/** An `init({ risky })` rule: controls matching `selector` (or inside a match) are judged as `kind`. */
export interface RiskyRule {
  selector: string;
  kind: RiskMark;
}

export interface FormFacts {
  /** Kinds of personal fields that hold a value and would be sent: `email`, `name`, `card`, … */
  personal: string[];
  /** A search form (role=search, a lone search field): never personal. */
  search: boolean;
  /** Where it is sent, when the page says (the submitter's `formaction`, else the form's `action`): absolute URL. */
  action?: string;
  /** `get` or `post`, or the method a `_method` field (Rails, Laravel) asks for: `delete`, `put`, … */
  method?: string;
  /** It has card fields (`autocomplete="cc-*"`, card number / CVC names) or a card-payment frame. */
  payment?: boolean;
  /** It sends a new password (`autocomplete="new-password"` with a value). */
  newPassword?: boolean;
}

/**
 * How the call presses the element: `click` (click, click_at), `key` (Enter or Space activates
 * it), `submit` (Enter in a field submits its form), `newline` (Enter in a text area or editor:
 * a new line, but pages often send on it).
 */
export type Via = 'click' | 'key' | 'submit' | 'newline';

export interface TargetFacts {
  role: string;
  name: string;
  tag: string;
  /** How the call presses it; absent on facts made by hand (then the call says). */
  via?: Via;
  /**
   * The text a person sees on it, when it differs from `name` (an `aria-label` of "Open settings"
   * on a button that shows "Delete account"; letters hidden inside the words): judged as well.
   */
  visibleText?: string;
  /** The button a submission goes through, for messages: `button "Delete my account"`. */
  button?: string;
  /** More texts that say what pressing it does: the default button's name, the form's name. */
  words?: string[];
  /**
   * The question a button answers, when its own words do not say what it does: its dialog's name,
   * description and text, or the text around a button that only consents ("Yes", "OK").
   */
  question?: string;
  /** Enter there sends what an editor holds (a text area or contenteditable, not a search box). */
  editor?: boolean;
  /** Where a nameless control sits, as a person would find it: `after "Chat"`. */
  place?: string;
  /** Words from the icon of a control with no name (class/id like `fa-trash`, `icon-send`). */
  icon?: string[];
  /** Absolute URL a link (or the link around the element) goes to. */
  href?: string;
  /** The link has a `download` attribute. */
  download?: boolean;
  /** The link asks for another HTTP method (`data-method="delete"`, `data-turbo-method`). */
  linkMethod?: string;
  /** The link's `ping` addresses (absolute): the browser POSTs to them when it is followed. */
  pings?: string[];
  /** The call would submit a form: what it holds and where it goes. */
  submits?: FormFacts;
  /** The site's mark on the element or an ancestor (`data-pagehand-risk`, `init({ risky })`). */
  mark?: RiskMark;
}

export interface CallLike {
  name: string;
  args?: Record<string, unknown>;
}
