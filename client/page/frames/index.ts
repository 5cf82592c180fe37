/**
 * The cross-origin frame bridge, as the entry installs it: this page answers its parent (when
 * it is a frame and the site listed the parent's origin), with its map's content lines, its
 * listed elements and their risk facts, and runs the parent's calls here. The parent half needs
 * no installing: the map and `act` use it when the site listed a frame's origin (parent.ts).
 */
import { act } from '../actions/index';
import { targetFacts } from '../facts';
import { CONTENT_END, CONTENT_START } from '../format';
import { buildMapAsync } from '../map';
import type { PageMap } from '../types';
import { answerParent } from './child';
import type { RemoteFacts, RemoteMap } from './protocol';

export { setFrameConfig, framesProblem } from './config';

/** The page-content lines of a map (its header and count lines are the parent's to write). */
export function contentLines(text: string): string[] {
  const lines = text.split('\n');
  const start = lines.indexOf(CONTENT_START);
  const end = lines.indexOf(CONTENT_END, start + 1);
  return start < 0 ? [] : lines.slice(start + 1, end < 0 ? undefined : end);
}

/** What pressing each listed element would do, in each way the parent's risk check asks about. */
function factsOf(map: PageMap): Record<string, RemoteFacts> {
  const out: Record<string, RemoteFacts> = {};
  const get = (name: string, args: Record<string, unknown>) => {
    try {
      return targetFacts({ name, args });
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

export function installFrameBridge(): void {
  answerParent({
    map: async (maxTokens): Promise<RemoteMap> => {
      const map = await buildMapAsync({ maxTokens });
      const elements = map.elements.filter((e) => /^\d+$/.test(e.ref));
      return JSON.parse(JSON.stringify({ lines: contentLines(map.text), elements, facts: factsOf(map) })) as RemoteMap;
    },
    act: (call) => act(call),
    facts: (call) => targetFacts(call),
  });
}
