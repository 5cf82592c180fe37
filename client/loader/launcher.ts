/**
 * The loader's launcher: the same button as the overlay's (client/ui/launcher.tsx), built with
 * a few DOM calls in a closed shadow root (as the overlay's) instead of Preact, so a page view that never opens
 * the panel pays for neither. The agent's overlay replaces it when the agent chunk arrives.
 *
 * Its name is the product's, the same in every language: the words of "Open pagehand" in each of
 * the panel's languages would be bytes on every page view, for a name the overlay's own launcher
 * (in the visitor's language: `t.expand` of client/ui/i18n.ts) takes over as soon as the agent is here.
 */
import type { LauncherPosition, Theme } from '../agent/public-types';
import type { NativeSnapshot } from './handoff';
import { UI_ATTR } from '../page/ui-attr';
import { launcherAnchor, loadLayout, placeIn } from '../ui/storage';

/** The overlay's stylesheet cut to the launcher's rules (./launcher-css.ts), put in at build time. */
declare const __PAGEHAND_LAUNCHER_CSS__: string;

/** The launcher's name until the agent's overlay, which names it in the visitor's language, takes over. */
export const OPEN_NAME = 'pagehand';

/** What the launcher shows: the script tag's attributes under the site's `init`. */
export interface LauncherLook {
  text?: string;
  theme?: Theme;
  position?: LauncherPosition;
}

export interface LoaderLauncher {
  show(look: LauncherLook): void;
  hide(): void;
  /** While the agent loads after a click. */
  busy(on: boolean): void;
  /** Gone for good: the agent's overlay took its place. */
  remove(): void;
}

/** Events that stop at the host, as the overlay's do: the page's listeners never see our clicks. */
const SHIELDED = [
  'keydown',
  'keyup',
  'keypress',
  'mousedown',
  'mouseup',
  'click',
  'dblclick',
  'pointerdown',
  'pointerup',
  'contextmenu',
  'focusin',
  'focusout',
];
const ICON = 'M4 3l14 8.5-6.5 1.5L8 19z';
const SVG = 'http://www.w3.org/2000/svg';

export function createLauncher(natives: NativeSnapshot, onOpen: () => void, onIntent: () => void): LoaderLauncher {
  // The native attachShadow the loader found (a closed root, as the overlay's, that the page's
  // later wrappers never see made).
  const attach = (natives.find(([o, k]) => o === Element.prototype && k === 'attachShadow')?.[2].value ??
    Element.prototype.attachShadow) as Element['attachShadow'];
  let host: HTMLElement | undefined;
  let root: ShadowRoot | undefined;
  let look: LauncherLook | undefined;
  let waiting = false;
  let loading = false;

  function paint(): void {
    if (!look) {
      host?.remove();
      return;
    }
    if (!document.body) {
      // Appending before the parser made <html> would make us the document element.
      if (!waiting) {
        waiting = true;
        document.addEventListener('DOMContentLoaded', paint, { once: true });
      }
      return;
    }
    if (!host) {
      host = document.createElement('pagehand-ui');
      host.setAttribute(UI_ATTR, '');
      root = attach.call(host, { mode: 'closed' });
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(__PAGEHAND_LAUNCHER_CSS__);
      root.adoptedStyleSheets = [sheet];
      for (const type of SHIELDED) host.addEventListener(type, (e) => e.stopPropagation());
      root.addEventListener('click', onOpen);
      root.addEventListener('pointerover', onIntent);
      root.addEventListener('focusin', onIntent);
    }
    const corner = look.position ?? 'bottom-right';
    const wrap = document.createElement('div');
    wrap.className = look.theme && look.theme !== 'auto' ? `ph ${look.theme}` : 'ph';
    const button = document.createElement('button');
    button.type = 'button';
    button.className = look.text ? 'launcher labelled' : 'launcher';
    if (!look.text) button.setAttribute('aria-label', OPEN_NAME);
    button.title = OPEN_NAME;
    if (loading) button.setAttribute('aria-busy', 'true');
    const anchor = launcherAnchor(placeIn(loadLayout(true), innerWidth, innerHeight, corner), corner, innerWidth, innerHeight);
    for (const side of ['left', 'right', 'top', 'bottom'] as const) if (anchor[side] !== undefined) button.style[side] = anchor[side]!;
    const svg = document.createElementNS(SVG, 'svg');
    for (const [k, v] of [
      ['width', '24'],
      ['height', '24'],
      ['viewBox', '0 0 22 22'],
      ['aria-hidden', 'true'],
    ])
      svg.setAttribute(k!, v!);
    const path = document.createElementNS(SVG, 'path');
    path.setAttribute('d', ICON);
    path.setAttribute('fill', 'currentColor');
    svg.append(path);
    button.append(svg);
    if (look.text) {
      const span = document.createElement('span');
      span.className = 'lt';
      span.textContent = look.text;
      button.append(span);
    }
    wrap.append(button);
    // Repainted (init, resize) while it had the focus: it keeps it.
    const focused = root!.activeElement !== null && root!.activeElement === root!.querySelector('button');
    root!.replaceChildren(wrap);
    if (focused) button.focus();
    if (host.parentNode !== document.documentElement) document.documentElement.appendChild(host);
  }

  const onResize = (): void => {
    if (look) paint();
  };
  addEventListener('resize', onResize);

  return {
    show(l) {
      look = { ...l };
      paint();
    },
    hide() {
      look = undefined;
      paint();
    },
    busy(on) {
      loading = on;
      const b = root?.querySelector('button');
      if (on) b?.setAttribute('aria-busy', 'true');
      else b?.removeAttribute('aria-busy');
    },
    remove() {
      look = undefined;
      removeEventListener('resize', onResize);
      host?.remove();
      host = root = undefined;
    },
  };
}
