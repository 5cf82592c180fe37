/** Types shared by the page layer and its users (agent loop, tests, site owners). */

/** A stable handle for one element, as printed in the map: "12", or "f2:7" inside frame f2. */
export type Ref = string & { readonly __brand: 'Ref' };

/** CSS pixels, in the top-level viewport's coordinates. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Live state, read from properties (not attributes). Absent means "not applicable / false". */
export interface ElementStates {
  checked?: boolean | 'mixed';
  pressed?: boolean | 'mixed';
  selected?: boolean;
  expanded?: boolean;
  disabled?: boolean;
  required?: boolean;
  invalid?: boolean;
  readonly?: boolean;
  focused?: boolean;
  /** Current value of a field; passwords are masked. */
  value?: string;
  /** The input type when it tells the model how to type (email, date, number…). */
  type?: string;
  /** Expected format for date/time inputs, e.g. "YYYY-MM-DD". */
  format?: string;
  min?: string;
  max?: string;
  step?: string;
  /** For selects and listboxes: the first few option labels and how many there are. */
  options?: { count: number; first: string[] };
  /** For scroll containers: screens of content above/below, left/right. */
  scroll?: { up: number; down: number; left: number; right: number };
  /** Heading level, for headings that carry a ref. */
  level?: number;
}

/** One listed element, as its line shows it: `role` is `clickable`/`scrollable` for generic targets. */
export interface MappedElement {
  ref: Ref;
  role: string;
  name: string;
  /** A clue for a target with no name (its link path, icon, id…), printed `~hint`; never a name. */
  hint?: string;
  rect: Rect;
  states: ElementStates;
  /** Lower-case tag name. */
  tag: string;
  /** Frame id ("f1") when the element lives in an iframe. */
  frame?: string;
  /** True when this ref was first handed out by this map call. */
  isNew: boolean;
}

export interface MapStats {
  /** Elements visited by the walk. */
  visited: number;
  /** Interactive candidates found (visible or not). */
  candidates: number;
  /** Elements listed in `text`. */
  listed: number;
  /** Visible interactive elements left out, by direction. */
  more: { above: number; below: number; left: number; right: number; covered: number };
  /** Estimated tokens of `text`. */
  tokens: number;
  ms: number;
}

export interface PageMap {
  text: string;
  elements: MappedElement[];
  stats: MapStats;
}

export interface MapOptions {
  /** Upper bound on tokens of `text` (estimated conservatively). Default 3000. */
  maxTokens?: number;
  /** How far beyond the viewport to list, in screens. Default 1. */
  nearScreens?: number;
  /** Include readable text lines near elements. Default true. */
  text?: boolean;
}

/** One element `find` found. */
export interface FoundElement {
  ref: Ref;
  role: string;
  name: string;
  /** Text of the block around the element (the row, the card), capped. */
  context: string;
  /** Where it is: `in view`, `2.5 screens below`. */
  where: string;
}

/** What `pagehand.find(query)` returns: at most 12 elements and 5 text lines. */
export interface FindResult {
  query: string;
  elements: FoundElement[];
  /** Lines of page text that match, with the ref of the nearest element after them. */
  texts: Array<{ text: string; near?: Ref }>;
  /** More matches than listed. */
  more: number;
  /** For the model, one result per line. */
  text: string;
}
