/**
 * What `init` and a run decided for the page layer, in one value: the site's deny zones and
 * risk marks, what is masked (the site's redaction, the run's secrets), whether frames from
 * other origins take part, the hook called before a full navigation, and the value the run's
 * data markers carry. Built above, by the
 * safety layer (client/safety/settings.ts) for the page's own calls and for each run, and
 * passed down to every page operation — the map, find, actions, screenshots — which read
 * nothing else, so two runs configured differently never see each other's settings.
 *
 * The page layer asks deny zones and masks what it needs through the interfaces below; what
 * they decide (which selectors, which values) is the safety layer's (client/safety/).
 *
 * @example
 *   buildMap({}, settings);
 *   act({ name: 'click', args: { ref: '12' } }, undefined, settings);
 */
import type { BeforeNavigate } from './actions/contract';
import type { RiskyRule } from './facts-types';
import type { FrameConfig } from './frames/config';
import type { ActionCall } from './actions/contract';
import type { EffectWatch } from './settle/effect-gate';

/** A box in the top viewport's CSS pixels. */
export interface ZoneBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The one gate for deny zones (`data-pagehand="off"`, the site's deny selectors) and our own
 * UI: every part of the page layer that reads or reaches an element asks it.
 */
export interface Zones {
  /** A subtree the site keeps from the agent: `data-pagehand="off"` or a deny selector. */
  denied(el: Element): boolean;
  /** Denied, or our own UI. */
  excluded(el: Element): boolean;
  /** `excluded` for an element with no attribute at all: only a deny selector can name it. */
  deniedBySelector(el: Element): boolean;
  /** The element or any ancestor (across shadow roots and frames) is excluded. */
  inside(el: Element): boolean;
  /** `inside` for many elements at once (each ancestor's answer kept): fresh per use. */
  check(): (el: Element) => boolean;
  /** The element is, or holds somewhere below it (through open shadow roots), a zone or our UI. */
  holds(el: Element): boolean;
  /** `textContent` up to `max` characters, without what zones (and our UI) hold. */
  textOutside(el: Element, max: number): string;
  /** The zones' boxes (document, shadow roots, same-origin frames): screenshots paint over them. */
  boxes(doc?: Document, dx?: number, dy?: number): ZoneBox[];
}

/** What must not leave the page (the run's secrets, the site's redaction), masked in page text. */
export interface Masks {
  /** Anything is masked at all: screenshots stay off then. */
  readonly any: boolean;
  /** Page text as the model may read it: secrets as `<secret:NAME>`, redacted text as `[redacted]`. */
  text(text: string): string;
  /** The same masks for text of another document (a page of the site read apart): its redacted elements are looked for there. */
  within?(doc: Document): Masks;
}

export interface PageSettings {
  /** Deny zones besides `data-pagehand="off"` (which always holds). */
  readonly zones: Zones;
  /** The site's `risky` rules, checked (read by the risk facts). */
  readonly marks: readonly RiskyRule[];
  /** Secrets and redaction, applied wherever page text becomes text for the model. */
  readonly masks: Masks;
  /** Frames from other origins may be read and acted in (off for what a stranger's page starts). */
  readonly remoteFrames: boolean;
  /** Which frames from other origins take part, and the proxy and token they must share. */
  readonly frames: FrameConfig;
  /** Called before a full navigation an action starts (the run saves its state). */
  readonly beforeNavigate?: BeforeNavigate;
  /**
   * The run's value its data markers carry (map/fence.ts): removed from every page string
   * before it is placed. None for the page's own calls: their markers are the bare ones.
   */
  readonly fence?: string;
  /**
   * For one action: the gate that holds the requests, navigations and windows the page starts
   * while it runs, until judged (the run's: safety/effects.ts). None: nothing is held.
   */
  readonly effects?: (call: ActionCall) => EffectWatch;
}

/** What placing a page string in text for the model needs: the masks, and the run's value to remove. */
export type PageText = Pick<PageSettings, 'masks' | 'fence'>;
