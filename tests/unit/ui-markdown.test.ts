/**
 * The Markdown subset of answers (client/ui/markdown.ts), as a tree: what it makes of each kind
 * of markup, that nothing outside the subset becomes an element (HTML, images, javascript: and
 * data: links stay the text they were), that hostile nesting stays bounded, and the plain text
 * Copy puts on the clipboard.
 */
import { describe, expect, it } from 'vitest';
import { parseMarkdown, plainText, type Node } from '../../client/ui/markdown';

const ALLOWED = new Set(['p', 'strong', 'em', 'code', 'pre', 'br', 'ul', 'ol', 'li', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'a', 'ref']);

/** Every element of a tree, depth first. */
function elements(nodes: Node[]): Array<Exclude<Node, string>> {
  return nodes.flatMap((n) => (typeof n === 'string' ? [] : [n, ...('c' in n ? elements(n.c) : [])]));
}
const tags = (md: string): string[] => elements(parseMarkdown(md)).map((n) => n.t);
/** The text of a tree, markup dropped. */
const words = (nodes: Node[]): string => nodes.map((n) => (typeof n === 'string' ? n : 'c' in n ? words(n.c) : '')).join('');

describe('blocks', () => {
  it('paragraphs split on blank lines; a single line break stays a line break', () => {
    expect(parseMarkdown('One\ntwo\n\nThree')).toEqual([
      { t: 'p', c: ['One', { t: 'br', c: [] }, 'two'] },
      { t: 'p', c: ['Three'] },
    ]);
  });

  it('bullet and numbered lists, nested by indent, a list right after a line of text, a numbered list keeps its start', () => {
    const tree = parseMarkdown('Found:\n- Blue mug\n  - 12 oz\n- Red cup\n\n3. third\n4. fourth');
    expect(tree).toEqual([
      { t: 'p', c: ['Found:'] },
      {
        t: 'ul',
        c: [
          { t: 'li', c: ['Blue mug', { t: 'ul', c: [{ t: 'li', c: ['12 oz'] }] }] },
          { t: 'li', c: ['Red cup'] },
        ],
      },
      {
        t: 'ol',
        start: 3,
        c: [
          { t: 'li', c: ['third'] },
          { t: 'li', c: ['fourth'] },
        ],
      },
    ]);
  });

  it('a blank line between items keeps one list; another marker starts another list', () => {
    expect(tags('- a\n\n- b\n\n* c')).toEqual(['ul', 'li', 'li', 'ul', 'li']);
  });

  it('a table: header cells, alignment from the delimiter row, short rows padded and long ones cut', () => {
    const [table] = parseMarkdown('| Item | Price |\n|:-----|------:|\n| Mug | $5 |\n| Cup |\n| Bowl | $7 | extra |');
    expect(table).toEqual({
      t: 'table',
      c: [
        {
          t: 'thead',
          c: [
            {
              t: 'tr',
              c: [
                { t: 'th', c: ['Item'], align: 'left' },
                { t: 'th', c: ['Price'], align: 'right' },
              ],
            },
          ],
        },
        {
          t: 'tbody',
          c: [
            {
              t: 'tr',
              c: [
                { t: 'td', c: ['Mug'], align: 'left' },
                { t: 'td', c: ['$5'], align: 'right' },
              ],
            },
            {
              t: 'tr',
              c: [
                { t: 'td', c: ['Cup'], align: 'left' },
                { t: 'td', c: [], align: 'right' },
              ],
            },
            {
              t: 'tr',
              c: [
                { t: 'td', c: ['Bowl'], align: 'left' },
                { t: 'td', c: ['$7'], align: 'right' },
              ],
            },
          ],
        },
      ],
    });
  });

  it('lines with pipes but no delimiter row, or a delimiter row of another width, are a paragraph', () => {
    expect(tags('a | b\nc | d')).toEqual(['p', 'br']);
    expect(tags('| a | b |\n|---|\n| c | d |')).toEqual(['p', 'br', 'br']);
  });

  it('fenced code keeps its text as written: markup, HTML and indentation inside are not read', () => {
    expect(parseMarkdown('```html\n<b>**x**</b>\n  [12]\n```\nafter')).toEqual([
      { t: 'pre', c: [{ t: 'code', c: ['<b>**x**</b>\n  [12]'] }] },
      { t: 'p', c: ['after'] },
    ]);
    // Unclosed: to the end.
    expect(parseMarkdown('~~~\nopen')).toEqual([{ t: 'pre', c: [{ t: 'code', c: ['open'] }] }]);
  });

  it('a heading is a bold line (no heading element), a separator line is dropped', () => {
    expect(parseMarkdown('## Results ##\n\n---\nText')).toEqual([
      { t: 'p', c: [{ t: 'strong', c: ['Results'] }] },
      { t: 'p', c: ['Text'] },
    ]);
    expect(tags('#hashtag')).toEqual(['p']);
  });
});

describe('inline', () => {
  it('bold, italics, both, and inline code', () => {
    expect(parseMarkdown('**b** *i* _i_ ***bi*** `a*b*`')[0]).toEqual({
      t: 'p',
      c: [
        { t: 'strong', c: ['b'] },
        ' ',
        { t: 'em', c: ['i'] },
        ' ',
        { t: 'em', c: ['i'] },
        ' ',
        { t: 'strong', c: [{ t: 'em', c: ['bi'] }] },
        ' ',
        { t: 'code', c: ['a*b*'] },
      ],
    });
  });

  it('no emphasis inside words with underscores, around spaces, or without a closer', () => {
    expect(tags('snake_case_name, 2 * 3 * 4, **open, _open')).toEqual(['p']);
    expect(words(parseMarkdown('snake_case_name, 2 * 3 * 4, **open, _open'))).toBe('snake_case_name, 2 * 3 * 4, **open, _open');
  });

  it('backslash escapes and entities give their characters as text', () => {
    expect(parseMarkdown('\\*not em\\* &lt;b&gt; &#60;i&#x3E; &amp; &bogus; &#0;')[0]).toEqual({ t: 'p', c: ['*not em* <b> <i> & &bogus; \ufffd'] });
  });

  it('refs: [12] and [f2:7] become refs; [12](…) is a link; a ref inside a link is its text', () => {
    expect(parseMarkdown('The mug [12] and the frame [f2:7].')[0]).toEqual({
      t: 'p',
      c: ['The mug ', { t: 'ref', ref: '12' }, ' and the frame ', { t: 'ref', ref: 'f2:7' }, '.'],
    });
    expect(tags('[12](https://shop.example/12)')).toEqual(['p', 'a']);
    expect(tags('[see [3]](https://shop.example/)')).toEqual(['p', 'a']);
    expect(tags('[x12] [1.5] [a]')).toEqual(['p']);
  });

  it('links: only http(s), the address as the browser reads it (host in punycode)', () => {
    const [p] = parseMarkdown('[Shop](https://shop.example/a?b=1 "title") <http://x.example> [Bank](https://bаnk.example/)');
    expect(elements([p!]).filter((n) => n.t === 'a')).toEqual([
      { t: 'a', href: 'https://shop.example/a?b=1', c: ['Shop'] },
      { t: 'a', href: 'http://x.example/', c: ['http://x.example'] },
      { t: 'a', href: new URL('https://bаnk.example/').href, c: ['Bank'] },
    ]);
    expect(new URL('https://bаnk.example/').href).toMatch(/^https:\/\/xn--/);
  });

  it('bare addresses become links, without the punctuation that ends the sentence', () => {
    const [p] = parseMarkdown('See https://shop.example/mugs. Or (https://shop.example/a_(b)).');
    expect(elements([p!]).map((n) => (n.t === 'a' ? n.href : n.t))).toEqual(['p', 'https://shop.example/mugs', 'https://shop.example/a_(b)']);
    expect(words([p!])).toBe('See https://shop.example/mugs. Or (https://shop.example/a_(b)).');
  });
});

describe('what is not in the subset stays text', () => {
  const hostile = [
    '<img src=x onerror="window.pwned=1">',
    '<script>window.pwned=1</script>',
    '[x](javascript:alert(1))',
    '[y](JaVaScRiPt:alert(1))',
    '[d](data:text/html,<script>alert(1)</script>)',
    '[m](mailto:a@b.example) [r](/relative) [v](vbscript:x)',
    '![pic](https://img.example/p.png)',
    '<b><i>nested <u>unclosed',
    '<a href="https://evil.example">a</a> <iframe src=https://evil.example>',
    '&lt;img src=x onerror=alert(1)&gt;',
    '<https://ok.example" onmouseover="x>',
  ].join('\n\n');

  it('no element but those of the subset; no link but http(s); the characters kept', () => {
    const tree = parseMarkdown(hostile);
    for (const n of elements(tree)) expect(ALLOWED.has(n.t), n.t).toBe(true);
    // Links only to http(s) addresses written in the text (a bare address inside an attribute
    // is one too), each showing that address; the autolink cut at the quote.
    const links = elements(tree).filter((n) => n.t === 'a');
    expect(links.map((n) => (n.t === 'a' ? [n.href, n.c] : []))).toEqual([
      ['https://evil.example/', ['https://evil.example']],
      ['https://evil.example/', ['https://evil.example']],
      ['https://ok.example/', ['https://ok.example']],
    ]);
    const text = words(tree);
    for (const s of [
      '<img src=x onerror="window.pwned=1">',
      '[x](javascript:alert(1))',
      '[d](data:text/html,<script>alert(1)</script>)',
      '![pic](https://img.example/p.png)',
      '<b><i>nested <u>unclosed',
      '<img src=x onerror=alert(1)>',
    ])
      expect(text).toContain(s);
  });

  it('hostile nesting stays bounded: deep emphasis, lists and brackets parse without running away', () => {
    const deep = `${'*'.repeat(3000)}a${'*'.repeat(3000)}`;
    expect(words(parseMarkdown(deep))).toContain('a');
    const lists = Array.from({ length: 40 }, (_, k) => `${'  '.repeat(k)}- level ${k}`).join('\n');
    const tree = parseMarkdown(lists);
    const depth = (nodes: Node[]): number => Math.max(0, ...nodes.map((n) => (typeof n === 'string' || !('c' in n) ? 0 : (n.t === 'ul' ? 1 : 0) + depth(n.c))));
    expect(depth(tree)).toBeLessThanOrEqual(9);
    expect(words(tree)).toContain('level 39');
    expect(words(parseMarkdown('['.repeat(5000) + 'x'))).toBe(`${'['.repeat(5000)}x`);
  });
});

describe('plain text for Copy', () => {
  it('words without the markup: blocks apart, list marks, tab-separated rows, links with their address, refs left out', () => {
    const md = [
      '**Cheapest** mugs [12]:',
      '- Blue mug [3], $5\n- Red cup\n  1. small\n  2. large',
      '| Item | Price |\n|---|---|\n| Mug | $5 |',
      'Shop: [the shop](https://shop.example/) and https://shop.example/',
      '```\n  indented  code\n```',
    ].join('\n\n');
    expect(plainText(parseMarkdown(md))).toBe(
      [
        'Cheapest mugs:',
        '- Blue mug, $5\n- Red cup\n  1. small\n  2. large',
        'Item\tPrice\nMug\t$5',
        'Shop: the shop (https://shop.example/) and https://shop.example/',
        '  indented  code',
      ].join('\n\n'),
    );
  });
});
