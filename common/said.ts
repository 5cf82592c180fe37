/**
 * What pagehand says to the user, as data: a code and its parameters, beside the English
 * sentence the model and the step log read (which stays as it is). The panel words a code in
 * the language it shows (client/ui/lang/*.ts, loaded with that language); in English it shows
 * the engine's own sentence. Types only: the codes cost the engine a few bytes, the wording
 * none.
 */

/**
 * What a risky action is. `site_tool`: a site's own tool that does not declare itself read-only.
 * `unjudged`: pagehand could not tell what the call does (the page broke the check, or hid what
 * it needs): it asks, and a yes holds for that one call only (no "always").
 */
export type RiskKind = 'payment' | 'deletion' | 'sending' | 'personal_data' | 'leaving_site' | 'download' | 'site_tool' | 'unjudged';

/** The kinds whose words a control can say (risk.ts `wordsKinds`). */
export type SaidKind = 'payment' | 'deletion' | 'sending';

/** The roles a covering layer is named by (client/page/actions/hit.ts `LAYER_ROLES`, and a <dialog>). */
export type CoverRole =
  | 'dialog'
  | 'alertdialog'
  | 'banner'
  | 'contentinfo'
  | 'navigation'
  | 'region'
  | 'complementary'
  | 'alert'
  | 'status'
  | 'tooltip'
  | 'menu'
  | 'listbox'
  | 'form'
  | 'search';

/** A code with nothing to fill in. */
type None = object;

/** Each code and its parameters (names, paths, origins and the page's own words go in as they are). */
export interface SaidParams {
  // Why a call needs the user's yes (the confirm card's "Why").
  /** Its name says it (`Delete`, `Pay now`). */
  does: { kind: SaidKind };
  /** What a person sees on it says so (`label`: what its accessible name says instead, if any). */
  doesSeen: { kind: SaidKind; text: string; label?: string };
  /** Its icon says so (`icon`: the icon's words, `trash`). */
  doesIcon: { kind: SaidKind; icon: string };
  /** Where its form goes says so (`path`). */
  doesForm: { kind: SaidKind; path: string };
  /** Where its link goes says so (`path`). */
  doesLink: { kind: SaidKind; path: string };
  /** Where its link pings says so (`path`). */
  doesPing: { kind: SaidKind; path: string };
  /** The question it answers says so (a "Yes" under "Delete your account?"). */
  doesAnswer: { kind: SaidKind; question: string };
  /** Enter in an editor sends what it holds. */
  editorSends: None;
  /** It sends a DELETE request. */
  deleteRequest: None;
  /** It sends a form with card fields. */
  cardFields: None;
  /** It sends a form to another site (`to`: its origin). */
  formElsewhere: { to: string };
  /** Its link pings another site. */
  pingElsewhere: { to: string };
  /** It submits personal data (`fields`, comma-separated, as the form names them); `password`: a new password among them. */
  personal: { fields: string; password: boolean };
  /** It downloads a file. */
  download: None;
  /** It leaves this site for `to`. */
  leaves: { to: string };
  /** The site (on its own page) or the page (a stranger's) marked it as a kind. */
  marked: { kind: RiskKind; site: boolean };
  /** pagehand could not tell what it does. */
  unjudged: None;
  /** A site's tool not marked read-only (`name`, its own `about`). */
  siteTool: { name: string; about: string };
  /** A tool the page registered, on a stranger's page: its code cannot be checked. */
  pageTool: { name: string };

  // Why an action failed (the step's result).
  /** The element is not visible. */
  notVisible: None;
  /**
   * Something else lies over it (`cover`: what, as the message names it: `dialog "Cookies"`).
   * A layer with a role comes with it apart (`role`, and `name`: its label, if any), so the
   * role is said in the panel's language; else the cover is the page's own (a selector).
   */
  covered: { cover: string; role?: CoverRole; name?: string };
  disabled: None;
  readOnly: None;
  /** It is still moving (an animation). */
  moving: None;
  /** It is off screen and could not be scrolled to, or the pointer cannot reach it. */
  unreachable: None;
  /** It is no longer on the page (removed or redrawn). */
  gone: None;
  /** It is, or lies in, a part of the page the site keeps pagehand out of. */
  zone: None;

  // How a run ended, and the model's connection.
  /** The model call failed or is being retried (`why`: the error's code: `network`, `rate_limited`, `upstream_timeout` …). */
  model: { why: string };
  /** The run stopped at its step limit (`max`). */
  maxSteps: { max: number };
  /** The agent kept repeating itself. */
  loop: None;
  /** `count` failed steps in a row. */
  errors: { count: number };
  /** The model kept answering without calling a tool. */
  noToolCall: None;
  /** The model gave up and said no reason. */
  gaveUp: None;
  /** The model finished and said nothing. */
  noSummary: None;
  /** The answer's data did not match the site's schema, twice. */
  invalidData: None;

  // How a replay (client/replay/replay-run.ts) ended; `step` counts the recording's steps from 1.
  /** It stopped at its step limit (`max`). */
  replayMaxSteps: { max: number };
  /** The user did not allow opening `url`, where the recording starts. */
  replayStartDenied: { url: string };
  /** The user did not allow recorded step `step`, so the replay stopped there. */
  replayDenied: { step: number };
  /** Step `step` broke and repair was off. */
  replayNeedsRepair: { step: number };
  /** Step `step` could not be repaired in `tries` model turns. */
  replayUnrepaired: { step: number; tries: number };
  /** Done: `replayed` steps as recorded, `repaired` made anew by the model. */
  replayed: { replayed: number; repaired: number };
}

export type SaidCode = keyof SaidParams;

/** One thing said: `{ code: 'does', kind: 'deletion' }`. */
export type Said = { [K in SaidCode]: { code: K } & SaidParams[K] }[SaidCode];

/** A language's wording of every code (client/ui/lang/*.ts: tsc asks each for all of them). */
export type SaidStrings = { [K in SaidCode]: (p: SaidParams[K]) => string };
