/**
 * `click {ref, hold_ms?}`, `double_click {ref}`, `right_click {ref}` and `hover {ref}`:
 * pointer actions on a mapped element.
 */
import type { Ref } from '../page-types';
import type { ToolArgs } from './args';
import { waitActionable, type ActionPoint } from './actionability';
import type { ActionContext, Handler } from './context';
import { ActionError, inputType, tag } from './dom';
import type { HandsArgs } from './hands-args';
import { clickAt, contextClickAt, doubleClickAt, hoverAt } from './pointer';
import { pageLazy } from '../lazy';
import { attrOf } from '../dom/proto';

/** The checked state a click may toggle: native checkbox/radio, or aria-checked/pressed. */
function checkedState(el: Element): boolean | undefined {
  if (tag(el) === 'input' && (inputType(el) === 'checkbox' || inputType(el) === 'radio')) return (el as HTMLInputElement).checked;
  const aria = attrOf(el, 'aria-checked') ?? attrOf(el, 'aria-pressed');
  return aria === 'true' ? true : aria === 'false' ? false : undefined;
}

/** Resolves, refuses a file input (the browser's picker is not for pagehand), waits until it can be pressed. */
async function pressable(ref: Ref, ctx: ActionContext): Promise<{ el: Element; point: ActionPoint; label: string }> {
  const el = ctx.resolve(ref);
  const subject = ctx.subject(ref, el);
  if (tag(el) === 'input' && inputType(el) === 'file') {
    throw new ActionError(`${subject} is a file upload: use upload with the names of files the user attached.`);
  }
  ctx.begin(el);
  const point = await waitActionable(el, { timeout: ctx.options.actionTimeout, describer: ctx.describer, subject, pointer: true });
  return { el, point: point!, label: ctx.label(el) };
}

export const click: Handler<ToolArgs['click']> = async ({ ref, hold }, ctx) => {
  // Press and hold is a rare gesture: its code loads on first use, before the element is measured.
  const gesture = hold ? await pageLazy() : undefined;
  const { el, point, label } = await pressable(ref, ctx);
  const hadState = checkedState(el);
  const at = { local: point.local, root: point.root };
  let clickPrevented: boolean;
  let message: string;
  if (hold && gesture) {
    ({ clickPrevented } = await gesture.holdAt(point.target, at, hold.ms));
    const secs = hold.ms >= 1000 ? `${Math.round(hold.ms / 100) / 10} s` : `${hold.ms} ms`;
    message = `Pressed and held ${label} for ${secs}${hold.capped ? ` (the longest hold; ${hold.ms / 1000} s at most)` : ''}, then let go.`;
  } else {
    ({ clickPrevented } = clickAt(point.target, at));
    message = `Clicked ${label}.`;
  }
  const hint = tag(el) === 'select' ? ' To choose an option, use select_option.' : '';
  return {
    message: `${message}${hint}`,
    after: () => {
      const now = el.isConnected ? checkedState(el) : undefined;
      if (now === undefined) return;
      const changed = now !== hadState;
      const word = attrOf(el, 'aria-pressed') !== null ? (now ? 'pressed' : 'not pressed') : now ? 'checked' : 'unchecked';
      return {
        message: changed ? `It is now ${word}.` : `It is still ${word}${clickPrevented ? ' (the page cancelled the click)' : ''}.`,
        changes: { checked: now },
      };
    },
  };
};

export const hover: Handler<ToolArgs['hover']> = async ({ ref }, ctx) => {
  const el = ctx.resolve(ref);
  const subject = ctx.subject(ref, el);
  ctx.begin(el);
  const point = await waitActionable(el, { timeout: ctx.options.actionTimeout, describer: ctx.describer, subject, pointer: true, enabled: false });
  hoverAt(point!.target, { local: point!.local, root: point!.root });
  return { message: `Hovering over ${ctx.label(el)}.` };
};

export const doubleClick: Handler<HandsArgs['double_click']> = async ({ ref }, ctx) => {
  const { point, label } = await pressable(ref, ctx);
  doubleClickAt(point.target, { local: point.local, root: point.root });
  return { message: `Double-clicked ${label}.` };
};

export const rightClick: Handler<HandsArgs['right_click']> = async ({ ref }, ctx) => {
  const { point, label } = await pressable(ref, ctx);
  const { menuByPage } = contextClickAt(point.target, { local: point.local, root: point.root });
  return {
    message: menuByPage
      ? `Right-clicked ${label}; the page handled it (its own menu, if it opened one, is in the next map).`
      : `Right-clicked ${label}. The page has no menu of its own there (the browser's menu is not something pagehand can use).`,
  };
};
