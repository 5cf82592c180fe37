/**
 * Readable text of a subtree, the way a person sees it: rendered text only (display:none and
 * visibility:hidden skipped), block elements on their own lines, table cells separated by
 * " | ", image alt text in brackets — and, unlike `innerText`, through open shadow roots,
 * slots and same-origin iframes. Deny zones and the agent's own UI are left out.
 */
import { isExcluded } from '../own-ui';
import { maskPageText } from '../redact';
import { isElement, tag, winOf } from './dom';

const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head', 'title', 'meta', 'link', 'svg', 'canvas', 'object', 'embed', 'audio', 'video', 'map']);

export function readableText(root: Element): string {
  const out: string[] = [];
  const nl = (): void => {
    if (out.length && out[out.length - 1] !== '\n') out.push('\n');
  };

  const walkChildren = (parent: Node, visible: boolean): void => {
    for (let c = parent.firstChild; c; c = c.nextSibling) walk(c, visible);
  };

  const walk = (node: Node, visible: boolean): void => {
    if (node.nodeType === 3) {
      if (visible) {
        const t = (node as Text).data;
        if (t.trim()) out.push(t.replace(/\s+/g, ' '));
        else if (t.length) out.push(' ');
      }
      return;
    }
    if (!isElement(node)) return;
    const el = node;
    const t = tag(el);
    // The site's deny zones and our own UI are not the agent's to read.
    if (SKIP.has(t) || isExcluded(el)) return;
    const cs = winOf(el).getComputedStyle(el);
    if (cs.display === 'none') return;
    const vis = cs.visibility === 'visible' ? true : cs.visibility === 'hidden' || cs.visibility === 'collapse' ? false : visible;
    if (t === 'br') return void out.push('\n');
    if (t === 'img') {
      const alt = el.getAttribute('alt')?.trim();
      if (vis && alt) out.push(` [${alt}] `);
      return;
    }
    if (t === 'input' || t === 'textarea' || t === 'select') return;
    const d = cs.display;
    const cell = d === 'table-cell';
    const block = !cell && !d.startsWith('inline') && d !== 'contents';
    if (block) nl();
    if (t === 'iframe' || t === 'frame') {
      // From the frame's root element, so that a zone mark on its <html> counts too.
      let inner: Element | null = null;
      try {
        inner = (el as HTMLIFrameElement).contentDocument?.documentElement ?? null;
      } catch {
        inner = null;
      }
      if (inner) walk(inner, true);
      nl();
      return;
    }
    if (t === 'slot') {
      const assigned = (el as HTMLSlotElement).assignedNodes({ flatten: true });
      if (assigned.length) for (const a of assigned) walk(a, vis);
      else walkChildren(el, vis);
    } else if (el.shadowRoot) {
      walkChildren(el.shadowRoot, vis);
    } else {
      walkChildren(el, vis);
    }
    if (cell) out.push(' | ');
    if (block) nl();
  };

  walk(root, true);
  // Masked whole, before `read` cuts it into pages: a secret split at a page's end would not match.
  return maskPageText(out
    .join('')
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').replace(/(\s*\|\s*)+$/, '').replace(/^\s*\|\s*/, '').trim())
    .filter(Boolean)
    .join('\n')
    .trim());
}
