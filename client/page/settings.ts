/**
 * What `init` and a run decided for the page layer, in one value: the site's deny zones and
 * risk marks, what is masked (the site's redaction, the run's secrets), whether frames from
 * other origins take part, and the hook called before a full navigation. Built above (the
 * entry for the page's own calls, the agent for each run) and passed down to every page
 * operation — the map, find, actions, screenshots, risk facts — which read nothing else, so
 * two runs configured differently never see each other's settings.
 *
 * @example
 *   const { zones } = denyZones(['#billing']);
 *   const settings = pageSettings({ zones, masks: createMasks(undefined, { pin: '4921' }) });
 *   buildMap({}, settings);
 */
import type { BeforeNavigate } from './actions/types';
import { frameConfig, type FrameConfig } from './frames/config';
import { NO_ZONES, type Zones } from './own-ui';
import { NO_MASKS, type Masks } from './redact';
import type { RiskyRule } from './risk-marks';

export interface PageSettings {
  /** Deny zones besides `data-pagehand="off"` (which always holds). */
  readonly zones: Zones;
  /** The site's `risky` rules, checked. */
  readonly marks: readonly RiskyRule[];
  /** Secrets and redaction, applied wherever page text becomes text for the model. */
  readonly masks: Masks;
  /** Frames from other origins may be read and acted in (off for what a stranger's page starts). */
  readonly remoteFrames: boolean;
  /** Which frames from other origins take part, and the proxy and token they must share. */
  readonly frames: FrameConfig;
  /** Called before a full navigation an action starts (the run saves its state). */
  readonly beforeNavigate?: BeforeNavigate;
}

/** Settings with what `parts` leaves out unconfigured: no deny selectors, marks or masks, no frame listed. */
export function pageSettings(parts: Partial<PageSettings> = {}): PageSettings {
  return Object.freeze({
    zones: parts.zones ?? NO_ZONES,
    marks: parts.marks ?? [],
    masks: parts.masks ?? NO_MASKS,
    remoteFrames: parts.remoteFrames ?? true,
    frames: parts.frames ?? frameConfig(),
    beforeNavigate: parts.beforeNavigate,
  });
}
