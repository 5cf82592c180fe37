/** The page map (temporary minimal version; the full walker replaces it). */
import { createDescriber } from './describe';
import { assignRef, remember } from './refs';
import type { MapOptions, MappedElement, PageMap } from './types';

export function buildMap(_options: MapOptions = {}): PageMap {
  const d = createDescriber();
  const elements: MappedElement[] = [];
  for (const el of document.querySelectorAll('a[href],button,input,select,textarea,[role=button],[contenteditable=""],[contenteditable=true]')) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const { ref, isNew } = assignRef(el, undefined);
    const { role, name } = d.describe(el);
    remember(ref, el, role, name, `${role}|${name}`);
    elements.push({ ref, role, name, rect: { x: r.x, y: r.y, width: r.width, height: r.height }, states: {}, tag: el.localName, isNew });
  }
  const text = elements.map((e) => `[${e.ref}]${e.role} "${e.name}"`).join('\n');
  return { text, elements, stats: { visited: 0, candidates: elements.length, listed: elements.length, more: { above: 0, below: 0, left: 0, right: 0, covered: 0 }, tokens: 0, ms: 0 } };
}
