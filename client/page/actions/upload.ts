/**
 * `upload {ref, files}`: puts attached files into a file input, or drops them on a drop zone.
 *
 * A file input (the ref itself, the input a label or a "Choose file" button stands for) gets
 * its `files` set, then `input` and `change`, as after the browser's picker. Anything else is a
 * drop zone: `dragenter`, `dragover` and `drop` at its centre carry a `DataTransfer` holding
 * the files, as when the user drops them from the desktop. Only attached files can be named
 * (upload-files.ts); the input's `accept` and `multiple` are honoured with a clear error.
 */
import { waitActionable } from './actionability';
import type { Handler } from './context';
import { ActionError, isDisabled, winOf } from './dom';
import { dataTransfer } from './data-transfer';
import type { HandsArgs } from './hands-args';
import { accepts, describeFile, pickFiles } from './upload-files';
import { fileInputFor } from './file-input';
import { attrOf } from '../dom/proto';

export const upload: Handler<HandsArgs['upload']> = async ({ ref, files: names }, ctx) => {
  const el = ctx.resolve(ref);
  const subject = ctx.subject(ref, el);
  let files: File[];
  try {
    files = pickFiles(names, ctx.files);
  } catch (e) {
    throw new ActionError((e as Error).message);
  }
  const what = files.map(describeFile).join(', ');
  const input = fileInputFor(el);
  const win = winOf(el);
  if (input) {
    const target = ctx.label(input === el ? el : input);
    if (isDisabled(input)) throw new ActionError(`${subject} is disabled: its file input takes no files now.`);
    const accept = attrOf(input, 'accept') ?? '';
    const refused = files.filter((f) => !accepts(accept, f));
    if (refused.length) {
      throw new ActionError(
        `${subject} accepts only ${accept
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
          .join(', ')}; ${refused.map(describeFile).join(', ')} ${refused.length === 1 ? 'is' : 'are'} not that. Attach another file or choose another field.`,
      );
    }
    if (files.length > 1 && !input.multiple) throw new ActionError(`${subject} takes one file; name one of: ${files.map((f) => f.name).join(', ')}.`);
    ctx.begin(input);
    input.files = dataTransfer(winOf(input), files).files;
    input.dispatchEvent(new (winOf(input).Event)('input', { bubbles: true, composed: true }));
    input.dispatchEvent(new (winOf(input).Event)('change', { bubbles: true }));
    return {
      message: `Put ${what} into ${target}${input === el ? '' : ` (the file input of ${ctx.label(el)})`}.`,
      after: () => ({ changes: { value: input.isConnected ? [...(input.files ?? [])].map((f) => f.name).join(', ') : undefined } }),
    };
  }
  // A drop zone: the files arrive as a drop from outside the page.
  ctx.begin(el);
  const point = (await waitActionable(el, { timeout: ctx.options.actionTimeout, describer: ctx.describer, subject, pointer: true, enabled: false }))!;
  const at = { x: point.local.x, y: point.local.y };
  const target = point.target;
  const dt = dataTransfer(win, files);
  dt.effectAllowed = 'copy';
  dt.dropEffect = 'copy';
  const event = (type: string): DragEvent =>
    new (winOf(target).DragEvent)(type, {
      bubbles: true,
      cancelable: type !== 'dragleave',
      composed: true,
      clientX: at.x,
      clientY: at.y,
      screenX: point.root.x,
      screenY: point.root.y,
      dataTransfer: dt,
    });
  target.dispatchEvent(event('dragenter'));
  const accepted = !target.dispatchEvent(event('dragover'));
  if (!accepted) {
    target.dispatchEvent(event('dragleave'));
    throw new ActionError(`${subject} is not a file input and does not take dropped files. Use the page's file input or its drop area.`);
  }
  target.dispatchEvent(event('drop'));
  return { message: `Dropped ${what} on ${ctx.label(el)}.` };
};
