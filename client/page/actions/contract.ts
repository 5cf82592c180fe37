/** Contracts of `pagehand.act`: the call, its options, and the result the model reads. */
import type { Said } from '../../../common/said';

/** One tool call as the model emits it: `{ name: 'click', args: { ref: '12' } }`. */
export interface ActionCall {
  name: string;
  args?: Record<string, unknown>;
}

/** How long to wait; all in milliseconds. */
export interface ActOptions {
  /** Upper bound on waiting for the page to settle after the action. Default 5000. */
  settleTimeout?: number;
  /** The DOM must be free of mutations this long to count as quiet. Default 120. */
  quietWindow?: number;
  /** Upper bound on waiting for the target to become actionable (visible, stable, enabled, uncovered). Default 1000. */
  actionTimeout?: number;
  /** Files `upload` may put into the page, by name: those attached to the task. Default none. */
  files?: readonly File[];
}

export interface ScrollReport {
  /** "page" or the container's label, e.g. `list "Results"`. */
  target: string;
  x: number;
  y: number;
  /** Vertical position in % of the scrollable range (0 when nothing to scroll). */
  percentY: number;
  percentX: number;
  atTop: boolean;
  atBottom: boolean;
}

/** What the action did to the page. Absent fields mean "no change of that kind". */
export interface ActionChanges {
  url?: { from: string; to: string };
  title?: { from: string; to: string };
  /** A full (cross-document) navigation started; the page is about to unload. */
  navigation?: { url: string };
  /** A download started (a link with `download`): the page stays. */
  download?: { url: string; filename: string };
  dialogOpened?: string[];
  dialogClosed?: string[];
  /** Visible interactive elements that were not there (or not visible) before the action. */
  newElements?: number;
  /** Up to five of them, as `role "name"`. */
  newSample?: string[];
  /** Visible interactive elements that disappeared. */
  goneElements?: number;
  /** The value now in the field the action targeted (passwords masked). */
  value?: string;
  checked?: boolean;
  /** The element that has focus after the action, as `role "name"`. */
  focused?: string;
  scroll?: ScrollReport;
  /** Set when the settle bound was hit: the page was still busy. */
  stillLoading?: { pendingRequests: number; domBusy: boolean };
  /** For `read`: which chunk this is. */
  chunk?: { page: number; pages: number };
}

/**
 * Why a call failed, as data (callers act on the kind, never on the sentence): `bad_args` (the
 * call itself is wrong), `unknown_ref` (no element was ever given that ref), `stale_ref` (the
 * element was removed or re-rendered, or no longer is what the map showed), `in_deny_zone` (it
 * is, or would reach into, a part of the page the site keeps pagehand out of), `failed`
 * (anything else: disabled, covered, no such option, …).
 */
export type ActionErrorKind = 'bad_args' | 'unknown_ref' | 'stale_ref' | 'in_deny_zone' | 'failed';

export interface ActionResult {
  ok: boolean;
  /** Short sentences the model can act on. */
  message: string;
  /** Set when `ok` is false. */
  error?: { kind: ActionErrorKind };
  /** Why it failed as a code, for the overlay to word in its language (the model reads `message`). */
  said?: Said;
  changes: ActionChanges;
  /** Where the time went (for telemetry and the benchmark). */
  timing?: { totalMs: number; settleMs: number };
}

/** Called before a full navigation so the agent loop can save its run state. */
export type BeforeNavigate = (info: { url: string; kind: 'navigate' | 'back' | 'link' }) => void | Promise<void>;
