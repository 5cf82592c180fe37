/**
 * The text a person sees on a control, for the risk check: what is drawn on it, in order.
 * Not what the accessibility tree says (an `aria-label` may say "Open settings" on a button
 * that shows "Delete account"), and not text that is there but not drawn: a letter in a
 * zero-size or clipped-away part, in a transparent or faded-out part (opacity, colour), in a
 * part moved off the control, hidden (display, visibility), or too small to read.
 *
 * Reads layout (rects, computed style): call it for one element — the element a call will
 * press — never over a whole map. What it cannot see: text covered by another element or
 * painted in the background's own colour, and words drawn in images or on a canvas.
 */
import { cssContent, applyTextTransform } from './name';
import { nodeTypeOf, openShadowOf, attrOf, ownerDocumentOf, parentNodeOf, parentElementOf, assignedSlotOf } from '../dom/proto';

/** Below these a letter is not read: a faded-out part, a sub-pixel or collapsed box, a tiny font. */
const MIN_OPACITY = 0.1;
const MIN_ALPHA = 0.1;
const MIN_SIZE = 3;
/** Enough for any label; a control holding more is read in part (a caller reading a whole dialog asks for more). */
const LABEL_LIMITS = { nodes: 200, text: 500 };

const BLOCK = /^(block|flex|grid|table|list-item|flow-root)/;

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

const area = (b: Box): boolean => b.right - b.left >= MIN_SIZE && b.bottom - b.top >= MIN_SIZE;
const cut = (a: Box, b: Box): Box => ({
  left: Math.max(a.left, b.left),
  top: Math.max(a.top, b.top),
  right: Math.min(a.right, b.right),
  bottom: Math.min(a.bottom, b.bottom),
});

/** A computed colour's alpha: `rgba(0, 0, 0, 0)`, `rgb(0 0 0 / 0.05)`, `transparent`, `color(srgb 0 0 0 / 0)`. */
function alphaOf(color: string): number {
  if (!color || color === 'transparent') return color ? 0 : 1;
  const slash = /\/\s*([\d.]+)(%?)\s*\)$/.exec(color);
  if (slash) return slash[2] ? Number(slash[1]) / 100 : Number(slash[1]);
  const rgba = /^rgba\([^,]+,[^,]+,[^,]+,\s*([\d.]+)\s*\)$/.exec(color);
  return rgba ? Number(rgba[1]) : 1;
}

/** `clip: rect(top, right, bottom, left)` of an absolutely placed box, in the viewport. */
function clipRect(el: Element, style: CSSStyleDeclaration): Box | undefined {
  if (!style.clip || style.clip === 'auto' || !/^(absolute|fixed)$/.test(style.position)) return undefined;
  const n = /rect\(([^)]*)\)/.exec(style.clip)?.[1]?.split(/[\s,]+/);
  if (!n || n.length !== 4) return undefined;
  const r = el.getBoundingClientRect();
  const at = (v: string, auto: number): number => (v === 'auto' ? auto : parseFloat(v));
  return { top: r.top + at(n[0]!, 0), right: r.left + at(n[1]!, r.width), bottom: r.top + at(n[2]!, r.height), left: r.left + at(n[3]!, 0) };
}

/** `clip-path: inset(…)` in the viewport; other shapes are taken as showing the box. */
function clipPathRect(el: Element, style: CSSStyleDeclaration): Box | undefined {
  const inset = /^inset\(([^)]*)\)/.exec(style.clipPath ?? '')?.[1];
  if (!inset) return undefined;
  const r = el.getBoundingClientRect();
  const v = inset
    .split(/\s+round\s+/)[0]!
    .trim()
    .split(/\s+/);
  const [t, rt = t, b = t, l = rt] = v as [string, string?, string?, string?];
  const len = (s: string, of: number): number => (s.endsWith('%') ? (parseFloat(s) / 100) * of : parseFloat(s) || 0);
  return { top: r.top + len(t, r.height), right: r.right - len(rt, r.width), bottom: r.bottom - len(b, r.height), left: r.left + len(l, r.width) };
}

/** A `content` value without its alt text: `"Delete" / ""` shows "Delete" (the alt is what the name reads). */
function shownContent(value: string): string {
  const re = /"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\//g;
  for (let m = re.exec(value); m; m = re.exec(value)) if (m[0] === '/') return value.slice(0, m.index);
  return value;
}

/** The element a part is drawn inside: its slot, its parent, or its shadow root's host. */
const up = (e: Element): Element | null => assignedSlotOf(e) ?? parentElementOf(e) ?? ((parentNodeOf(e) as ShadowRoot | null)?.host || null);

/**
 * Transparent text still drawn: by a shadow, a stroke, or the background painted through it
 * (`background-clip: text`). Counted as seen: a page would use these to show words it hides
 * from a colour check.
 */
function drawnOtherwise(s: CSSStyleDeclaration): boolean {
  return (
    (s.textShadow !== '' && s.textShadow !== 'none') ||
    parseFloat(s.getPropertyValue('-webkit-text-stroke-width')) > 0 ||
    s.getPropertyValue('background-clip') === 'text' ||
    s.getPropertyValue('-webkit-background-clip') === 'text'
  );
}

/** Text as it is drawn: `unicode-bidi: bidi-override` with `direction: rtl` draws its letters backwards. */
function drawnOrder(text: string, s: CSSStyleDeclaration): string {
  return s.unicodeBidi === 'bidi-override' && s.direction === 'rtl' ? [...text].reverse().join('') : text;
}

/**
 * The text drawn on `control`. `skip`: elements whose text must not be read at all (the site's
 * deny zones, pagehand's own UI); `limits`: how many nodes and characters are read at most.
 * @example visibleText(button) // 'Delete account', for <button aria-label="Open settings">Delete account</button>
 */
export function visibleText(control: Element, skip: (el: Element) => boolean = () => false, limits = LABEL_LIMITS): string {
  const view = ownerDocumentOf(control).defaultView;
  if (!view) return '';
  const styles = new Map<Element, CSSStyleDeclaration>();
  const style = (el: Element): CSSStyleDeclaration => {
    let s = styles.get(el);
    if (!s) styles.set(el, (s = view.getComputedStyle(el)));
    return s;
  };
  const own = control.getBoundingClientRect();
  const range = ownerDocumentOf(control).createRange();
  let out = '';
  let nodes = 0;

  /** Where the control's parts up to `el` still let its content be seen (overflow, clip, clip-path), or null: nowhere. */
  const windows = new Map<Element, Box | null>();
  const windowOf = (el: Element): Box | null => {
    let w = windows.get(el);
    if (w !== undefined) return w;
    const parent = el === control ? null : up(el);
    w = parent ? windowOf(parent) : own.width || own.height ? own : { left: -Infinity, top: -Infinity, right: Infinity, bottom: Infinity };
    const s = style(el);
    if (w && (s.overflowX !== 'visible' || s.overflowY !== 'visible')) w = cut(w, el.getBoundingClientRect());
    const clip = clipRect(el, s);
    if (w && clip) w = cut(w, clip);
    const path = clipPathRect(el, s);
    if (w && path) w = cut(w, path);
    if (w && !area(w)) w = null;
    windows.set(el, w);
    return w;
  };

  /** The element's own text is drawn faint enough to read: not faded out (here or above, within the control), not transparent, not tiny. */
  const readable = (el: Element): boolean => {
    let opacity = 1;
    for (let e: Element | null = el; e; e = e === control ? null : up(e)) opacity *= Number(style(e).opacity) || 0;
    const s = style(el);
    const fill = s.getPropertyValue('-webkit-text-fill-color');
    return (
      opacity >= MIN_OPACITY &&
      ((alphaOf(s.color) >= MIN_ALPHA && (!fill || alphaOf(fill) >= MIN_ALPHA)) || drawnOtherwise(s)) &&
      parseFloat(s.fontSize) >= MIN_SIZE &&
      (typeof el.checkVisibility !== 'function' || el.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: true }))
    );
  };

  /** `parent`: the element it is drawn inside (a shadow root's host, a slot), as the walk met it. */
  const drawnText = (text: Text, parent: Element): boolean => {
    if (!readable(parent)) return false;
    const w = windowOf(parent);
    if (!w) return false;
    range.selectNodeContents(text);
    for (const r of range.getClientRects()) if (area(cut(r, w))) return true;
    return false;
  };

  const pseudo = (el: Element, which: '::before' | '::after'): string => {
    const s = view.getComputedStyle(el, which);
    if (!s.content || s.content === 'none' || s.content === 'normal' || s.display === 'none' || s.visibility !== 'visible') return '';
    if (alphaOf(s.color) < MIN_ALPHA || parseFloat(s.fontSize) < MIN_SIZE || Number(s.opacity) < MIN_OPACITY) return '';
    return cssContent(shownContent(s.content), (a) => attrOf(el, a)).text;
  };

  const walk = (el: Element): void => {
    if (nodes > limits.nodes || out.length > limits.text || skip(el)) return;
    const s = style(el);
    if (s.display === 'none') return;
    if (el.localName === 'br') out += ' ';
    const start = out.length;
    const visible = readable(el) && windowOf(el) !== null;
    if (visible) out += pseudo(el, '::before');
    // A button drawn from its value (<input type=button value="…">): the value is its text.
    if (visible && el.localName === 'input' && /^(button|submit|reset)$/i.test(attrOf(el, 'type') ?? '')) out += ` ${(el as HTMLInputElement).value} `;
    const root = openShadowOf(el);
    const children = root ? root.childNodes : el.localName === 'slot' ? (el as HTMLSlotElement).assignedNodes({ flatten: true }) : el.childNodes;
    for (const child of children) {
      nodes++;
      if (nodeTypeOf(child) === 3) {
        if (drawnText(child as Text, el)) out += drawnOrder(applyTextTransform((child as Text).data, style(el).textTransform), style(el));
      } else if (nodeTypeOf(child) === 1) walk(child as Element);
    }
    if (visible) out += pseudo(el, '::after');
    // A block's drawn text is a word of its own; one with nothing drawn (a hidden or moved-away part, blockified by position) joins nothing.
    if (out.length > start && el !== control && BLOCK.test(s.display)) out = `${out.slice(0, start)} ${out.slice(start)} `;
  };
  walk(control);
  return out.replace(/\s+/g, ' ').trim().slice(0, limits.text);
}
