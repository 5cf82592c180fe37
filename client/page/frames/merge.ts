/**
 * A frame's own map, put in the page's map where the frame's line is (pure): the frame line
 * says which frame it is and from where, the frame's lines follow it one step further in, and
 * their refs carry the frame's prefix (`[f2:17]`), as for a same-origin frame. The elements get
 * the same prefix, their boxes moved by where the frame's content sits in the page.
 *
 * A frame's line is the frame page's text as a whole: it is cleaned of the run's value here (the
 * frame never learns it), and only then read for refs.
 */
import { clean } from '../map/fence';
import { estimateTokens } from '../map/tokens';
import type { MappedElement, PageMap, Ref } from '../page-types';
import type { RemoteMap } from './protocol';

export interface RemoteFrameMap {
  /** `f2`: the prefix of the frame's refs. */
  frameId: string;
  /** The frame element's own ref in the page's map (its line is replaced). */
  frameRef: string;
  origin: string;
  /** Where the frame's content starts, in the page's viewport. */
  offset: { x: number; y: number };
  map: RemoteMap;
}

const quoteOrigin = (o: string): string => o.replace(/[^\w:./-]/g, '');

/**
 * `[12]button` → `[f2:12]button` for the frame's own refs. Anything else in the frame's lines
 * that reads as a ref (`[3]button`, `[f1:4]`) becomes `(3)`: a frame cannot name the page's
 * elements or another frame's.
 */
function prefixRefs(line: string, frameId: string, refs: ReadonlySet<string>): string {
  return line
    .replace(/\*?\[(f\d+:\d+)\]/g, '($1)')
    .replace(/(\*?)\[(\d+)\]/g, (_all, star: string, n: string) => (refs.has(n) ? `${star}[${frameId}:${n}]` : `(${n})`));
}

export function mergeRemote(page: PageMap, remotes: readonly RemoteFrameMap[], fence: string | undefined): PageMap {
  if (!remotes.length) return page;
  let lines = page.text.split('\n');
  const elements: MappedElement[] = [...page.elements];
  for (const r of remotes) {
    const at = lines.findIndex((l) => new RegExp(`(^|\\s|\\*)\\[${r.frameRef}\\]`).test(l));
    if (at < 0) continue; // the frame is not listed (out of scope or budget)
    const indent = /^\s*/.exec(lines[at]!)![0];
    const refs = new Set(r.map.elements.map((e) => String(e.ref)).filter((x) => /^\d+$/.test(x)));
    const head = lines[at]!.replace(/\s*\(?(?:cross-origin, )?opaque: use click_at\)?\s*$/, '') + ` (frame ${r.frameId} from ${quoteOrigin(r.origin)})`;
    const body = r.map.lines.map((l) => `${indent}  ${prefixRefs(clean(String(l), fence), r.frameId, refs)}`);
    lines = [...lines.slice(0, at), head, ...body, ...lines.slice(at + 1)];
    for (const e of r.map.elements) {
      if (!refs.has(String(e.ref))) continue;
      elements.push({
        ...e,
        ref: `${r.frameId}:${e.ref}` as Ref,
        rect: { x: e.rect.x + r.offset.x, y: e.rect.y + r.offset.y, width: e.rect.width, height: e.rect.height },
        frame: r.frameId,
      });
    }
  }
  const text = lines.join('\n');
  return { ...page, text, elements, stats: { ...page.stats, listed: elements.length, tokens: estimateTokens(text) } };
}
