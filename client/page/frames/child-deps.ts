/**
 * What pagehand in a frame hands its parent: its map's content lines, its own listed elements
 * (not those of its own frames) and their risk facts; and what it runs for the parent: the same
 * `act` and risk facts as for the page's own calls, so its deny zones and checks apply here.
 */
import { act } from '../actions/index';
import { markers } from '../map/fence';
import { buildMapAsync } from '../map/map';
import type { CallLike, TargetFacts } from '../facts-types';
import type { PageSettings } from '../settings';
import type { PageMap } from '../page-types';
import type { ChildDeps } from './answer';
import type { RemoteFacts, RemoteMap } from './protocol';

/**
 * The page-content lines of a map (its header and count lines are the parent's to write). The
 * frame's own map carries the bare markers (it is not told the parent run's value), which no
 * page string can hold: the map's strings lose `⟪ ⟫` (fence.ts). The parent cleans the lines of
 * its run's value (merge.ts).
 */
export function contentLines(text: string, fence?: string): string[] {
  const lines = text.split('\n');
  const { start: open, end: close } = markers(fence);
  const start = lines.indexOf(open);
  const end = lines.indexOf(close, start + 1);
  return start < 0 ? [] : lines.slice(start + 1, end < 0 ? undefined : end);
}

/** What pressing each listed element would do, in each way the parent's risk check asks about. */
function factsOf(map: PageMap, settings: PageSettings, targetFacts: FactsOf): Record<string, RemoteFacts> {
  const out: Record<string, RemoteFacts> = {};
  const get = (name: string, args: Record<string, unknown>) => {
    try {
      return targetFacts({ name, args }, settings);
    } catch {
      return undefined;
    }
  };
  for (const e of map.elements) {
    if (!/^\d+$/.test(e.ref)) continue; // this page's own elements (its same-origin frames' stay here)
    const f: RemoteFacts = {
      click: get('click', { ref: e.ref }),
      enter: get('press_key', { key: 'Enter', ref: e.ref }),
      space: get('press_key', { key: ' ', ref: e.ref }),
      submit: get('type', { ref: e.ref, text: 'x', submit: true }),
    };
    for (const k of Object.keys(f) as Array<keyof RemoteFacts>) if (f[k] === undefined) delete f[k];
    out[e.ref] = f;
  }
  return out;
}

/** What the risk check reads of a call here (client/safety/facts.ts, lent by the entry). */
export type FactsOf = (call: CallLike, settings: PageSettings) => TargetFacts | undefined;

/** Answers with the page's own settings at the time of each request (`init` may change them). */
export const childDeps = (settings: () => PageSettings, facts: FactsOf): ChildDeps => ({
  map: async (maxTokens): Promise<RemoteMap> => {
    const s = settings();
    const map = await buildMapAsync({ maxTokens }, s);
    const elements = map.elements.filter((e) => /^\d+$/.test(e.ref));
    return JSON.parse(JSON.stringify({ lines: contentLines(map.text, s.fence), elements, facts: factsOf(map, s, facts) })) as RemoteMap;
  },
  act: (call) => act(call, undefined, settings()),
  facts: (call) => facts(call, settings()),
});
