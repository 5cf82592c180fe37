import { attrOf } from '../../dom/proto';

/** The first token of an element's class attribute ('' without one): its kind, read cheaply (the walk asks often). */
export function firstClass(el: Element): string {
  const c = attrOf(el, 'class');
  if (!c) return '';
  let i = 0;
  while (i < c.length && c.charCodeAt(i) <= 32) i++;
  let j = i;
  while (j < c.length && c.charCodeAt(j) > 32) j++;
  return c.slice(i, j);
}
