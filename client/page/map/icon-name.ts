/**
 * An icon's own name, as a word: what an icon font's class, a sprite's id or a Material
 * ligature calls the picture (`fa-solid fa-trash` → `trash`, `ui-icon-play` → `play`,
 * `#icon-trash` → `trash`). Read by rule, not from a list of icons: the library's prefix and its
 * style words (solid, regular, fw, lg, fill, outline…) are taken off, what is left is the name.
 * Shown as a hint (`~trash`), never as a name: map hints (hints.ts) and page text (walk.ts).
 */
import { attrOf } from '../dom/proto';

/** A library's prefix; what follows it is the icon's name. */
const PREFIX =
  /^(?:fa[srlbdtk]?|bi|mdi|ion|ionicons?|ti|tabler|la[srb]?|glyphicon|ui-icon|icons?|ico|octicon|codicon|dashicons|material-icons|svg-icon|feather|lucide|ri|bx[sl]?|uil|gg|oi|el-icon|iconfont)[-_](.+)$/i;
/** `close-icon`, `menu_icon`: the name before the word "icon". */
const SUFFIX = /^(.+?)[-_]icon$/i;
/** Class tokens that only say "an icon" (or which library), with no name. */
const GENERIC = /^(?:icons?|ico|ui-icon|svg-icon|fa[srlbdtk]?|bi|glyphicon|mdi|la[srb]?|ti|octicon|codicon|dashicons|material-(?:icons|symbols)(?:-\w+)?)$/i;
/** What follows a prefix when the class only styles the icon (size, weight, animation, layout). */
const STYLE =
  /^(?:solid|regular|light|thin|duotone|brands?|sharp|classic|fw|lg|sm|xs|xl|2xs|2xl|[1-9]0?x|spin(?:-pulse|-reverse)?|pulse|beat(?:-fade)?|fade|bounce|flip(?:-horizontal|-vertical|-both)?|shake|border|inverse|pull-(?:left|right|start|end)|rotate-(?:\d+|by)|stack(?:-[12]x)?|li|ul|width-auto|outlined?|filled?|rounded?|two-?tone|small|large|white|black)$/i;
/** A style said at the end of the name (`bi-trash-fill`, `fa-trash-o`). */
const TRAILING_STYLE = /[-_](?:fill|filled|outline|outlined|solid|round|rounded|sharp|two-?tone|o)$/i;
/** Words before "-icon" that say where or how an icon sits, not what it shows. */
const NOT_A_NAME = /^(?:has|with|no|is|btn|button|left|right|leading|trailing|prefix|suffix|start|end|input|list|item|svg|ui|app|nav)$/i;
/** A Material ligature: the word the font draws as a glyph (`delete`, `shopping_cart`). */
const LIGATURE = /^[a-z][a-z0-9_]{1,39}$/;
const MATERIAL = /(?:^|\s)material-(?:icons|symbols)(?:-[\w]+)?(?:\s|$)/;
const NAME_MAX = 40;

/** Pure: the icon's name a class token gives ("fa-trash" → "trash"; "fa-solid" → ""). */
export function iconWord(token: string): string {
  if (!token || GENERIC.test(token)) return '';
  const m = PREFIX.exec(token) ?? SUFFIX.exec(token);
  const rest = m?.[1];
  if (!rest || STYLE.test(rest) || NOT_A_NAME.test(rest)) return '';
  // A numbered variant (`bi-trash3`) is the same picture.
  const name = rest.replace(TRAILING_STYLE, '').replace(/(?<=[a-z])\d+$/i, '');
  return name.toLowerCase().slice(0, NAME_MAX);
}

/** Pure: the first icon name among class tokens ("fa-solid fa-trash fa-fw" → "trash"). */
export function iconWordOf(classes: string): string {
  for (const t of classes.split(/\s+/)) {
    const w = iconWord(t);
    if (w) return w;
  }
  return '';
}

/** Pure: a sprite's name from its `<use>` reference ("/icons.svg#icon-trash" → "trash"). */
export function spriteWord(ref: string): string {
  const id = ref.slice(ref.indexOf('#') + 1);
  return iconWord(id) || id.slice(0, NAME_MAX);
}

/** A Material icon's ligature word, when `el` is one (its text is the word the font draws). */
export function ligatureOf(el: Element): string {
  if (!MATERIAL.test(attrOf(el, 'class') ?? '') || el.childElementCount) return '';
  const word = (el.textContent ?? '').trim();
  return LIGATURE.test(word) ? word : '';
}

/** Letters in the Unicode private use area only (an icon font's glyph), or nothing. */
const GLYPH_ONLY = /^[\s\u{E000}-\u{F8FF}\u{F0000}-\u{FFFFD}]*$/u;

/**
 * The word an icon shows in a line of text, when `el` is an icon (an `<i>`/`<span>` of an icon
 * font, a Material ligature, an inline SVG with a sprite or a title); else "". An icon the page
 * names (aria-label, title) reads as that name; an SVG's <title> is its name.
 */
export function iconInText(el: Element, tag: string): string {
  if (tag === 'svg') {
    for (const c of el.children) {
      if (c.localName === 'title') return (c.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, NAME_MAX);
    }
    const label = ownLabel(el);
    if (label) return label;
    for (const c of el.children) {
      const ref = c.localName === 'use' ? (attrOf(c, 'href') ?? attrOf(c, 'xlink:href')) : null;
      if (ref?.includes('#')) return spriteWord(ref);
    }
    return '';
  }
  const ligature = ligatureOf(el);
  if (ligature) return ownLabel(el) || ligature;
  if (el.childElementCount || !GLYPH_ONLY.test(el.textContent ?? '')) return '';
  const word = iconWordOf(attrOf(el, 'class') ?? '');
  return word ? ownLabel(el) || word : '';
}

/** The label the page gave the icon itself. */
function ownLabel(el: Element): string {
  return (attrOf(el, 'aria-label') ?? attrOf(el, 'title') ?? '').replace(/\s+/g, ' ').trim().slice(0, NAME_MAX);
}
