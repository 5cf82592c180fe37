/**
 * The page layer's settings (client/page/settings.ts), built: what the site's `init` decided,
 * parsed once per `init` (deny zones and
 * risk marks checked, the redaction kept for each run's masks), and the settings a run's page
 * operations get from it: the site's, plus the run's own secrets, frames and navigation hook.
 * Values only: a run builds its settings from the site's and its own state, never from what
 * another run left behind.
 *
 * @example
 *   const { site } = siteSettings({ deny: ['#billing'] }, { redaction: undefined, frames: frameConfig() });
 *   runPageSettings(site, { secrets: { pin: '4921' }, byPage: false, beforeNavigate: save, fence: newFence() });
 */
import type { BeforeNavigate } from '../page/actions/contract';
import { frameConfig, type FrameConfig } from '../page/frames/config';
import type { PageSettings } from '../page/settings';
import type { SiteConfig } from '../agent/public-types';
import { riskRules } from './marks';
import { createMasks, NO_MASKS, type Redaction } from './masks';
import { denyZones, NO_ZONES } from './zones';

/** Settings with what `parts` leaves out unconfigured: no deny selectors, marks or masks, no frame listed. */
export function pageSettings(parts: Partial<PageSettings> = {}): PageSettings {
  return Object.freeze({
    zones: parts.zones ?? NO_ZONES,
    marks: parts.marks ?? [],
    masks: parts.masks ?? NO_MASKS,
    remoteFrames: parts.remoteFrames ?? true,
    frames: parts.frames ?? frameConfig(),
    beforeNavigate: parts.beforeNavigate,
    fence: parts.fence,
    effects: parts.effects,
  });
}

export interface SiteSettings {
  /** The page's own settings (the page API, the frame bridge): the site's zones, marks, frames and redaction. */
  readonly page: PageSettings;
  readonly redaction?: Redaction;
  /** `init({ webmcp })`: the page's WebMCP tools are offered (default true). */
  readonly webmcp: boolean;
}

/** The site's settings from its `init` (and from the script tag's proxy and token, for frames). */
export function siteSettings(config: SiteConfig, extra: { redaction?: Redaction; frames: FrameConfig }): { site: SiteSettings; ignoredDeny: string[] } {
  const { zones, ignored } = denyZones(config.deny ?? []);
  const { rules } = riskRules(config.risky ?? []);
  const page = pageSettings({ zones, marks: rules, masks: createMasks(extra.redaction, undefined), frames: extra.frames });
  return { site: { page, redaction: extra.redaction, webmcp: config.webmcp !== false }, ignoredDeny: ignored };
}

/** A run's own part: its secrets are masked, a run a stranger's page started stays out of other sites' frames. */
export interface RunSide {
  secrets: Record<string, string> | undefined;
  byPage: boolean;
  beforeNavigate: BeforeNavigate;
  /** The value the run's data markers carry, removed from the page strings its operations write. */
  fence: string;
  /** Holds what the run's actions make the page do until judged (./effects.ts). */
  effects?: PageSettings['effects'];
}

export function runPageSettings(site: SiteSettings, run: RunSide): PageSettings {
  return pageSettings({
    ...site.page,
    masks: run.secrets ? createMasks(site.redaction, run.secrets) : site.page.masks,
    remoteFrames: !run.byPage,
    beforeNavigate: run.beforeNavigate,
    fence: run.fence,
    effects: run.effects,
  });
}
