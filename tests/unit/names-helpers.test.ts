/** Pure helpers behind accessible names (client/page/names/name.ts) that need no DOM. */
import { describe, expect, it } from 'vitest';
import { applyTextTransform, cssContent, flatString, flatten, pseudoLayout, spacingOf, UNREAD_CONTAINER_ROLES } from '../../client/page/names/name';

describe('flatString (the name: accname flat string)', () => {
  it('collapses runs of ASCII whitespace to one space and trims them', () => {
    expect(flatString('  Save\t\n  draft \f')).toBe('Save draft');
  });
  it('keeps no-break spaces, zero-width spaces, soft hyphens and other spaces as written', () => {
    expect(flatString('\u00a0Close\u00a0\u00a0now\u00a0')).toBe('\u00a0Close\u00a0\u00a0now\u00a0');
    expect(flatString(' \u200bClo\u00adse\u2003x ')).toBe('\u200bClo\u00adse\u2003x');
  });
  it('differs from flatten, the looser form for a printed line', () => {
    const raw = ' a\u00a0\u00a0b\u200b ';
    expect(flatString(raw)).toBe('a\u00a0\u00a0b\u200b');
    expect(flatten(raw)).toBe('a b');
  });
});

describe('spacingOf (how a box meets its neighbours in a name)', () => {
  it('runs inline boxes on with their neighbours', () => {
    expect(spacingOf('inline')).toBe('inline');
  });
  it('sets every other box apart, and display:contents too (as Chromium reads it)', () => {
    for (const d of ['contents', 'block', 'inline-block', 'flex', 'inline-flex', 'grid', 'table-cell', 'list-item', 'flow-root'])
      expect(spacingOf(d)).toBe('apart');
  });
});

describe('pseudoLayout (how ::before/::after meet the content around them)', () => {
  it('joins inline generated content as written', () => {
    expect(pseudoLayout('inline', false)).toBe('inline');
    expect(pseudoLayout('contents', false)).toBe('inline');
  });
  it('tells inline-level boxes from block-level ones', () => {
    for (const d of ['inline-block', 'inline-flex', 'inline-grid', 'inline-table']) expect(pseudoLayout(d, false)).toBe('inline-box');
    for (const d of ['block', 'list-item', 'flex', 'grid', 'table', 'flow-root']) expect(pseudoLayout(d, false)).toBe('block-box');
  });
  it('makes CSS alt text a word of its own whatever its display', () => {
    expect(pseudoLayout('inline', true)).toBe('word');
    expect(pseudoLayout('block', true)).toBe('word');
  });
});

describe('UNREAD_CONTAINER_ROLES (containers a name from content does not read)', () => {
  it('holds widget containers, live regions and navigation', () => {
    for (const r of ['menu', 'menubar', 'toolbar', 'tree', 'group', 'dialog', 'navigation', 'status']) expect(UNREAD_CONTAINER_ROLES.has(r)).toBe(true);
  });
  it('leaves out sectioning content and the roles that take their name from content', () => {
    for (const r of ['article', 'figure', 'banner', 'region', 'list', 'table', 'row', 'cell', 'menuitem', 'treeitem', 'heading'])
      expect(UNREAD_CONTAINER_ROLES.has(r)).toBe(false);
  });
});

describe('applyTextTransform (text as rendered)', () => {
  it('upper- and lower-cases', () => {
    expect(applyTextTransform('Save draft', 'uppercase')).toBe('SAVE DRAFT');
    expect(applyTextTransform('HeLLo', 'lowercase')).toBe('hello');
  });
  it('capitalizes the first letter of each word; a hyphen starts a word, an underscore does not', () => {
    expect(applyTextTransform('hello wORLD-foo bar_baz', 'capitalize')).toBe('Hello WORLD-Foo Bar_baz');
  });
  it('leaves other transforms alone', () => {
    expect(applyTextTransform('ab', 'full-width')).toBe('ab');
  });
});

describe('cssContent (generated content and CSS alt text)', () => {
  const noAttr = () => null;
  it('tells CSS alt text apart from the content it replaces', () => {
    expect(cssContent('"→" / "Next"', noAttr)).toEqual({ text: 'Next', alt: true });
    expect(cssContent('"Total"', noAttr)).toEqual({ text: 'Total', alt: false });
  });
  it('keeps the spaces inside the quoted strings', () => {
    expect(cssContent('"Total "', noAttr).text).toBe('Total ');
  });
});
