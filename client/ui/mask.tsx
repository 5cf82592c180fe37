/**
 * The mask: while a run acts, the page takes no input from the user (pointer: a layer over
 * the viewport; keys: a capture listener that drops the user's trusted key events aimed
 * outside our UI). The agent's own events are untrusted and dispatched to elements directly,
 * and the page layer hit-tests through `data-pagehand-ui`, so they still land. It shows the
 * element being acted on with its ref, and moves a pointer to where the click goes.
 */
import { useEffect, useRef } from 'preact/hooks';
import type { Strings } from './i18n';
import type { ActionView } from './state';
import { callLabel } from './labels';
import { onUserInput } from './trusted';

/** Real user input we stop while the agent works (pointer too, for page top layers above us). */
const BLOCKED = [
  'keydown',
  'keyup',
  'keypress',
  'pointerdown',
  'pointerup',
  'mousedown',
  'mouseup',
  'click',
  'dblclick',
  'auxclick',
  'contextmenu',
  'wheel',
  'touchstart',
];

export function blockUserInput(host: Element, win: Window = window): () => void {
  const block = (e: Event): void => {
    if (!e.isTrusted || e.composedPath().includes(host)) return;
    if (e.cancelable) e.preventDefault();
    e.stopImmediatePropagation();
  };
  for (const type of BLOCKED) win.addEventListener(type, block, { capture: true, passive: false });
  return () => {
    for (const type of BLOCKED) win.removeEventListener(type, block, { capture: true });
  };
}

/** Where the pointer goes for an action: click_at's point, else the middle of its target. */
export function pointFor(a: ActionView | undefined): { x: number; y: number } | undefined {
  if (!a) return undefined;
  const { x, y } = a.call.args;
  if (a.call.name === 'click_at' && typeof x === 'number' && typeof y === 'number') return { x, y };
  const r = a.target?.rect;
  return r ? { x: r.x + r.width / 2, y: r.y + r.height / 2 } : undefined;
}

interface Props {
  host: Element;
  acting?: ActionView;
  t: Strings;
  onTakeOver(): void;
  onStop(): void;
}

export function Mask({ host, acting, t, onTakeOver, onStop }: Props) {
  useEffect(() => blockUserInput(host), [host]);
  const last = useRef<{ x: number; y: number }>();
  const point = pointFor(acting);
  if (point) last.current = point;
  const r = acting?.target?.rect;
  const at = last.current;
  return (
    <div class="mask" data-mask onWheel={(e) => e.preventDefault()}>
      {r && (
        <div class="hl" data-highlight style={{ left: `${r.x - 3}px`, top: `${r.y - 3}px`, width: `${r.width + 6}px`, height: `${r.height + 6}px` }}>
          <span class={r.y < 30 ? 'cap below' : 'cap'} dir="auto">
            {callLabel(acting!.call, acting!.target)}
          </span>
        </div>
      )}
      {at && (
        <svg class="ptr" data-pointer viewBox="0 0 22 22" aria-hidden="true" style={{ transform: `translate(${at.x - 3}px,${at.y - 2}px)` }}>
          <path d="M3 2l15 9-7 1.5L7.5 19z" fill="#fff" stroke="#111" stroke-width="1.5" stroke-linejoin="round" />
        </svg>
      )}
      <div class="lock row" role="status">
        <span>{t.working}</span>
        <button type="button" onClick={onUserInput(onTakeOver)}>
          {t.takeOver}
        </button>
        <button type="button" class="danger" onClick={onStop}>
          {t.stop}
        </button>
      </div>
    </div>
  );
}
