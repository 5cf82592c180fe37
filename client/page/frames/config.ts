/**
 * Who pagehand in this page may talk to across origins: the site owner's `init({ frames })`
 * (the origins of the frames it embeds, and of the pages that embed it), and the proxy and
 * token this page's pagehand uses — only a pagehand of the same proxy and token takes part.
 * Empty by default: no frame from another origin is talked to, and no parent is answered.
 */
import { canonicalOrigin } from './protocol';

export interface FrameConfig {
  /** Origins talked to, both ways (exact, as `https://pay.example`). */
  origins: string[];
  proxy: string;
  token: string;
}

/** Why `frames` cannot be used (for init's message), or undefined. */
export function framesProblem(frames: unknown): string | undefined {
  if (frames === undefined) return undefined;
  if (!Array.isArray(frames)) return 'an array of origins such as "https://pay.example"';
  for (const f of frames) if (!canonicalOrigin(f)) return `an array of origins such as "https://pay.example" (not ${JSON.stringify(f)}: no path, no "*")`;
  return undefined;
}

/** `init({ frames })` with the proxy and token, normalised (no frame talked to without a token). */
export function frameConfig(c: Partial<FrameConfig> = {}): FrameConfig {
  return {
    origins: (c.origins ?? []).map((o) => canonicalOrigin(o)).filter((o): o is string => !!o),
    proxy: (c.proxy ?? '').replace(/\/+$/, ''),
    token: c.token ?? '',
  };
}

/** Whether `origin` may take part, and this page has a proxy and token to match against. */
export function frameAllowed(config: FrameConfig, origin: string): boolean {
  return !!config.token && config.origins.includes(origin);
}

/** The same pagehand: the same proxy and the same token. */
export function sameInstallation(config: FrameConfig, proxy: string, token: string): boolean {
  return !!config.token && token === config.token && proxy.replace(/\/+$/, '') === config.proxy;
}
