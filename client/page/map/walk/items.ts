/** What the walk produces (items in document order) and the context it carries down the tree. */
import type { Rect } from '../../page-types';
import type { Zones } from '../../settings';

/** A dialog, form or frame that encloses items; printed as a header with indented lines. */
export interface Group {
  kind: 'dialog' | 'form' | 'frame';
  el: Element;
  modal: boolean;
  frame?: FrameInfo;
}

export interface FrameInfo {
  /** "f1", "f2", … stable per iframe element for the session. */
  id: string;
  doc: Document;
  /** Offset of the frame's viewport in top-level viewport coordinates. */
  dx: number;
  dy: number;
}

export type Reason = 'native' | 'role' | 'pointer' | 'handler' | 'editable' | 'focus' | 'scroll' | 'opaque';

export interface ElementItem {
  kind: 'el';
  el: Element;
  order: number;
  rect: Rect;
  reason: Reason;
  frame: FrameInfo | null;
  groups: readonly Group[];
  block: Element | null;
  /** Landmark tag/role and the latest heading before it: context for the fingerprint. */
  context: string;
  /** Its box is its block's, far from the viewport (the walk's `exactScreens`): whether it shows or is clipped was not read exactly. */
  approx?: true;
  /** Not visible where it is: clipped out of a scroll container (counted there) or hidden. */
  clippedBy?: ElementItem | 'hidden';
  /** Screens of content around a scroll container. */
  scroll?: { up: number; down: number; left: number; right: number };
  /** Opaque content the map can't see into (canvas, video, cross-origin frame). */
  opaque?: 'canvas' | 'video' | 'iframe' | 'embed';
  crossOrigin?: boolean;
  /** Elements clipped inside this scroll container, counted rather than listed. */
  hiddenInside?: number;
  /** An icon-only target inside a clickable row: the row, for naming it by position. */
  iconIn?: Element;
  /** A label standing in for a control that shows nothing itself (read with its role and states). */
  standsFor?: HTMLInputElement;
  /** A row of a tree without ARIA: its nested group (expanded/collapsed), and whether it is named by its own line only. */
  tree?: { group: Element | null; ownLine: boolean };
  /** One choice of a dropdown's list (read as an option). */
  choice?: boolean;
  /** A trigger that holds its dropdown's list of choices: named without them. */
  holdsChoices?: Element;
}

export interface TextItem {
  kind: 'text';
  /** Whitespace-collapsed and trimmed; never empty. */
  readonly text: string;
  order: number;
  /** The element whose box stands for the text's position when its block's box can't. */
  el: Element;
  frame: FrameInfo | null;
  groups: readonly Group[];
  block: Element | null;
  heading?: number;
  /** The box of clipping ancestors (scroll containers, overflow:hidden); text outside is hidden. */
  clip?: Rect;
}

export type Item = ElementItem | TextItem;

export interface WalkResult {
  items: Item[];
  visited: number;
  candidates: number;
  modals: Group[];
  /** A fixed or sticky layer exists (occlusion is only checked then). */
  layered: boolean;
}

export interface WalkOptions {
  focused: Element | null;
  text: boolean;
  /**
   * Inline candidates whose block lies farther than this many screens from the viewport take
   * their block's box instead of their own (enough to count them by direction; the box of an
   * inline run inside a long paragraph is costly). Default: every box is exact.
   */
  exactScreens?: number;
  /** Deny zones: not walked into. */
  zones: Zones;
  /** Called as the walk enters a shadow root or a same-origin frame's document, before it reads inside. */
  entered?: (root: ShadowRoot | Document) => void;
}

/** What a parent hands down to its children. */
export interface Ctx {
  frame: FrameInfo | null;
  groups: readonly Group[];
  /** Top-viewport box outside which content is clipped. */
  clip: Rect;
  /** The innermost scroll container item, to count clipped elements against. */
  scroller: ElementItem | null;
  /** The nearest enclosing clickable (folding of pointer-only children), or null. */
  clickable: Element | null;
  /** The parent's computed cursor is pointer. */
  parentPointer: boolean;
  parentEditable: boolean;
  /** Text is collected (not inside a candidate whose name covers it, nor a label). */
  collectText: boolean;
  visible: boolean;
  landmark: string;
  /** The parent lays its children out in a row (flex row): they read as one line. */
  rowFlex: boolean;
  /** A list whose element children are a dropdown's choices (walk/choices.ts), or null. */
  choices: Element | null;
}
