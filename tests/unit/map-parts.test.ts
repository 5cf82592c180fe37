/**
 * The map's pure parts, alone: box arithmetic (walk/clip), placement in screens (place),
 * hints for unnamed targets (hints), and text lines (walk/text).
 */
import { describe, expect, it } from 'vitest';
import { controlWord, fileName, hrefHint, tellingId } from '../../client/page/map/hints';
import { iconWord, iconWordOf, spriteWord } from '../../client/page/map/icon-name';
import { placement } from '../../client/page/map/place';
import { intersect, NO_CLIP, overlaps } from '../../client/page/map/walk/clip';
import { TextBuffer } from '../../client/page/map/walk/text';
import type { Ctx, Item, TextItem } from '../../client/page/map/walk/items';

describe('walk/clip', () => {
  it('intersects boxes and tells overlap; an empty intersection has zero size', () => {
    expect(intersect({ x: 0, y: 0, width: 100, height: 100 }, { x: 50, y: 80, width: 100, height: 100 })).toEqual({ x: 50, y: 80, width: 50, height: 20 });
    expect(intersect({ x: 0, y: 0, width: 10, height: 10 }, { x: 20, y: 20, width: 5, height: 5 })).toMatchObject({ width: 0, height: 0 });
    expect(overlaps({ x: 0, y: 0, width: 10, height: 10 }, { x: 10, y: 0, width: 10, height: 10 })).toBe(false);
    expect(overlaps({ x: 0, y: 0, width: 10, height: 10 }, NO_CLIP)).toBe(true);
  });
});

describe('place', () => {
  it('says where a box is, in screens away from the viewport', () => {
    expect(placement({ x: 10, y: 10, width: 10, height: 10 }, 1000, 800)).toEqual({ direction: 'view', distance: 0 });
    expect(placement({ x: 10, y: 1200, width: 10, height: 10 }, 1000, 800)).toEqual({ direction: 'below', distance: 0.5 });
    expect(placement({ x: 10, y: -1610, width: 10, height: 10 }, 1000, 800)).toEqual({ direction: 'above', distance: 2 });
    expect(placement({ x: 1500, y: 10, width: 10, height: 10 }, 1000, 800)).toEqual({ direction: 'right', distance: 0.5 });
  });
});

describe('hints', () => {
  it('takes control words from classes and ids, first by priority', () => {
    expect(controlWord('hitarea expandable-hitarea')).toBe('expand');
    expect(controlWord('btn close-btn')).toBe('close');
    expect(controlWord('row-actions kebab')).toBe('kebab');
    expect(controlWord('card title')).toBe('');
  });

  it('takes a link path that says something, never "/" or the page itself', () => {
    const base = 'https://shop.test/account/index.html';
    expect(hrefHint('/mes-commandes', base)).toBe('/mes-commandes');
    expect(hrefHint('/', base)).toBe('');
    expect(hrefHint('#', base)).toBe('');
    expect(hrefHint('#cart', base)).toBe('#cart');
    expect(hrefHint('javascript:void(0)', base)).toBe('');
    expect(hrefHint('https://other.test/help/', base)).toBe('other.test/help');
  });

  it('takes icon classes, image file names and ids a person wrote', () => {
    expect(iconWordOf('fa fa-bars')).toBe('bars');
    expect(iconWordOf('icon icon-user')).toBe('user');
    expect(iconWordOf('search-icon big')).toBe('search');
    expect(iconWordOf('btn primary')).toBe('');
    expect(fileName('/static/img/logo.svg?v=3')).toBe('logo.svg');
    expect(fileName('data:image/png;base64,AAAA')).toBe('');
    expect(tellingId('hamburger-toggle')).toBe('hamburger-toggle');
    expect(tellingId('ember1234')).toBe('');
    expect(tellingId(':r3:')).toBe('');
    expect(tellingId('3f2a9c1e-77aa')).toBe('');
  });

  it("reads an icon's own name by rule: the library prefix and style words off", () => {
    const cases: Array<[string, string]> = [
      ['fa-solid fa-trash', 'trash'],
      ['fa fa-trash fa-fw fa-lg', 'trash'],
      ['fas fa-2x fa-spin fa-circle-notch', 'circle-notch'],
      ['fa-regular fa-star', 'star'],
      ['fa fa-trash-o', 'trash'],
      ['fa-sharp fa-solid fa-trash-can', 'trash-can'],
      ['bi bi-trash', 'trash'],
      ['bi bi-trash3-fill', 'trash'],
      ['ui-icon ui-icon-play', 'play'],
      ['ui-icon ui-icon-circle-triangle-e', 'circle-triangle-e'],
      ['glyphicon glyphicon-remove', 'remove'],
      ['mdi mdi-delete-outline', 'delete'],
      ['close-icon', 'close'],
      ['has-icon btn-icon', ''],
      ['fa-solid fa-fw', ''],
      ['material-symbols-outlined', ''],
      ['ui-icon', ''],
    ];
    for (const [classes, word] of cases) expect([classes, iconWordOf(classes)]).toEqual([classes, word]);
    expect(iconWord('fa-pull-left')).toBe('');
    expect(spriteWord('/sprite.svg#icon-trash')).toBe('trash');
    expect(spriteWord('#cart')).toBe('cart');
  });
});

describe('walk/text', () => {
  const el = (tag: string): Element => ({ localName: tag, getAttribute: () => null }) as unknown as Element;
  const ctx = { frame: null, groups: [], clip: NO_CLIP } as unknown as Ctx;

  it('joins inline pieces into one line per block, collapses whitespace, remembers the last heading', () => {
    const items: Item[] = [];
    let order = 0;
    const t = new TextBuffer(items, () => order++);
    const p = el('p');
    t.add('   ', p, ctx); // leading whitespace alone starts nothing
    const outer = t.enterBlock(el('h2'), 'h2');
    t.add('  Billing\n  address ', p, ctx);
    t.leaveBlock(outer);
    const inP = t.enterBlock(p, 'p');
    t.add('May', p, ctx);
    t.separate(' | ');
    t.add('€120', p, ctx);
    t.leaveBlock(inP);
    const lines = items as TextItem[];
    expect(lines.map((l) => [l.text, l.heading, l.order])).toEqual([
      ['Billing address', 2, 0],
      ['May | €120', undefined, 1],
    ]);
    expect(lines[1]!.block).toBe(p);
    expect(t.lastHeading).toBe('Billing address');
  });
});
