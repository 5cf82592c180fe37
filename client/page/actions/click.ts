/** `click {ref}` and `hover {ref}`: pointer actions on a mapped element. */
import type { ToolArgs } from './args';
import { waitActionable } from './actionability';
import type { Handler } from './context';
import { ActionError, inputType, tag } from './dom';
import { clickAt, hoverAt } from './pointer';

/** The checked state a click may toggle: native checkbox/radio, or aria-checked/pressed. */
function checkedState(el: Element): boolean | undefined {
  if (tag(el) === 'input' && (inputType(el) === 'checkbox' || inputType(el) === 'radio')) return (el as HTMLInputElement).checked;
  const aria = el.getAttribute('aria-checked') ?? el.getAttribute('aria-pressed');
  return aria === 'true' ? true : aria === 'false' ? false : undefined;
}

export const click: Handler<ToolArgs['click']> = async ({ ref }, ctx) => {
  const el = ctx.resolve(ref);
  const subject = ctx.subject(ref, el);
  if (tag(el) === 'input' && inputType(el) === 'file') {
    throw new ActionError(`${subject} is a file upload; pagehand cannot choose files for you. Ask the user to pick the file.`);
  }
  ctx.begin(el);
  const point = await waitActionable(el, { timeout: ctx.options.actionTimeout, describer: ctx.describer, subject, pointer: true });
  const label = ctx.label(el);
  const hadState = checkedState(el);
  const { clickPrevented } = clickAt(point!.target, { local: point!.local, root: point!.root });
  const hint = tag(el) === 'select' ? ' To choose an option, use select_option.' : '';
  return {
    message: `Clicked ${label}.${hint}`,
    after: () => {
      const now = el.isConnected ? checkedState(el) : undefined;
      if (now === undefined) return;
      const changed = now !== hadState;
      const word = el.getAttribute('aria-pressed') !== null ? (now ? 'pressed' : 'not pressed') : now ? 'checked' : 'unchecked';
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

