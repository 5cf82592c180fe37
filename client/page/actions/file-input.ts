/**
 * The file input an element stands for (the input itself, the one its label names, a lone one
 * beside a "Choose file" button): where `upload` puts files, and what the deny-zone gate
 * (touches.ts) checks it would touch.
 */
import { flatParent, inputType, isElement, tag } from './dom';

const isFileInput = (el: Element | null | undefined): el is HTMLInputElement => !!el && tag(el) === 'input' && inputType(el) === 'file';

/** How far up from the ref a lone file input still counts as the ref's ("Choose file" button beside a hidden input). */
const NEAR_LEVELS = 1;

/** The file input the element stands for, if any. */
export function fileInputFor(el: Element): HTMLInputElement | undefined {
  if (isFileInput(el)) return el;
  const label = tag(el) === 'label' ? (el as HTMLLabelElement) : (el.closest('label') as HTMLLabelElement | null);
  if (label && isFileInput(label.control)) return label.control as HTMLInputElement;
  let scope: Node | null = el;
  for (let level = 0; scope && isElement(scope) && level <= NEAR_LEVELS; level++, scope = flatParent(scope)) {
    const inputs = [...(scope as Element).querySelectorAll('input[type=file]')];
    if (inputs.length === 1) return inputs[0] as HTMLInputElement;
    if (inputs.length > 1) return undefined; // several: the ref must say which
  }
  return undefined;
}
