/**
 * The frames from other origins this page talks to, whichever protocol opened them: the site's
 * (`init({ frames })`, parent.ts) or the userscript's (sealed-parent.ts). The map and `act`
 * read them here; each protocol sends its own way (`send`).
 */
import type { FrameReply, FrameRequest, RemoteMap } from './protocol';
import type { Zones } from '../settings';

export interface FrameSession {
  /** Which protocol: the site's listed origins, or the userscript's key. */
  kind: 'site' | 'userscript';
  iframe: HTMLIFrameElement;
  win: Window;
  /** `f2`: the prefix of the frame's refs (the map's own frame id). */
  frameId: string;
  /** The frame document's origin (a userscript frame's: once it proved itself). */
  origin: string;
  ready: boolean;
  /** A userscript frame that did not answer in time once: not waited for again (it may still answer later). */
  quiet?: boolean;
  map?: RemoteMap;
  waiting: Map<number, (reply: FrameReply) => void>;
  onReady: Array<() => void>;
  /** Sends one request; its reply comes to `waiting` under its id. */
  send(m: FrameRequest): void;
}

export const sessions = new Map<HTMLIFrameElement, FrameSession>();

/** A frame whose document this page cannot reach (another origin, or a sandbox). */
export function crossOrigin(iframe: HTMLIFrameElement): boolean {
  try {
    return !iframe.contentDocument;
  } catch {
    return true;
  }
}

/** A frame the site keeps from the agent (in a deny zone): never talked to. */
export const keptOut = (iframe: HTMLIFrameElement, zones: Zones): boolean => zones.inside(iframe);

export function markReady(s: FrameSession): void {
  s.ready = true;
  s.quiet = false;
  for (const f of s.onReady.splice(0)) f();
}
