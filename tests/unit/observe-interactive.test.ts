// @vitest-environment happy-dom
/**
 * The action snapshot's test for "interactive" is the old selector list, checked in code: for
 * every element below, `isInteractive` agrees with `matches()` of that list.
 */
import { describe, expect, it } from 'vitest';
import { isInteractive } from '../../client/page/actions/observe';

const ROLES = [
  'button',
  'link',
  'checkbox',
  'radio',
  'switch',
  'tab',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'combobox',
  'textbox',
  'searchbox',
  'slider',
  'spinbutton',
  'treeitem',
  'gridcell',
];
const SELECTOR = [
  'a[href]',
  'button',
  'input:not([type=hidden])',
  'select',
  'textarea',
  'summary',
  '[contenteditable]:not([contenteditable=false])',
  ...ROLES.map((r) => `[role=${r}]`),
].join(',');

const TAGS = ['a', 'button', 'input', 'select', 'textarea', 'summary', 'div', 'span', 'li', 'td'];
const ATTRS: Array<Record<string, string>> = [
  {},
  { href: '/x' },
  { type: 'hidden' },
  { type: 'text' },
  { type: 'checkbox' },
  { contenteditable: '' },
  { contenteditable: 'true' },
  { contenteditable: 'false' },
  { contenteditable: 'plaintext-only' },
  { role: 'button' },
  { role: 'none' },
  { role: 'presentation', contenteditable: '' },
  { role: 'gridcell' },
  { role: 'button link' },
  { role: 'none', href: '/y' },
  { role: '' },
];

describe('isInteractive', () => {
  it('agrees with the selector list on every tag × attribute shape', () => {
    const disagree: string[] = [];
    let interactive = 0;
    for (const tag of TAGS) {
      for (const attrs of ATTRS) {
        const el = document.createElement(tag);
        for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
        document.body.appendChild(el);
        const want = el.matches(SELECTOR);
        if (want) interactive++;
        if (isInteractive(el) !== want) disagree.push(`${el.outerHTML}: expected ${want}`);
        el.remove();
      }
    }
    expect(disagree).toEqual([]);
    expect(interactive).toBeGreaterThan(50); // both kinds of case are exercised
  });

  it('reads type="HIDDEN" as hidden, as browsers match [type=hidden] (HTML lists type as case-insensitive; happy-dom does not)', () => {
    const el = document.createElement('input');
    el.setAttribute('type', 'HIDDEN');
    expect(isInteractive(el)).toBe(false);
  });
});
