// @vitest-environment happy-dom
/**
 * The embed's configuration as read and checked before it applies: `pagehand.init(config)`
 * (every bad field throws one clear error naming it and what it accepts), the script tag's
 * attributes (both spellings; a bad corner falls back with one warning), and where the panel
 * and the launcher go for each corner.
 */
import { describe, expect, it, vi } from 'vitest';
import { InitError, parseInit, POSITIONS } from '../../client/embed/init-config';
import { readScriptTag } from '../../client/embed/script-tag';
import { launcherAnchor } from '../../client/ui/storage';
import { placeIn } from '../../client/ui/storage';

describe('parseInit', () => {
  it('splits a full config into the runs part, the overlay part and the run defaults', () => {
    const handler = () => 'ok';
    const confirm = () => true;
    const p = parseInit({
      instructions: 'Be brief.',
      tools: [{ name: 'addToCart', description: 'Add', handler }],
      allowedActions: ['click'],
      deny: ['header'],
      confirm,
      theme: 'dark',
      launcherText: '  Ask the shop ',
      autoOpen: true,
      position: 'top-left',
      lang: 'es',
      model: 'gpt-test',
    });
    expect(p.site).toEqual({
      instructions: 'Be brief.',
      tools: [{ name: 'addToCart', description: 'Add', handler }],
      allowedActions: ['click'],
      deny: ['header'],
      confirm,
    });
    expect(p.ui).toEqual({ theme: 'dark', launcherText: 'Ask the shop', position: 'top-left', lang: 'es' });
    expect(p.autoOpen).toBe(true);
    expect(p.runDefaults).toEqual({ model: 'gpt-test', lang: 'es' });
    expect(p.unknown).toEqual([]);
  });

  it('nothing given is the defaults (init() and init({}) reset the configuration)', () => {
    for (const c of [undefined, null, {}]) {
      const p = parseInit(c);
      expect(p.site).toEqual({});
      expect(p.ui).toEqual({ theme: undefined, launcherText: undefined, position: undefined, lang: undefined });
      expect(p.autoOpen).toBe(false);
    }
  });

  it.each([
    [{ theme: 'blue' }, `pagehand.init: theme must be one of 'auto', 'light', 'dark' (got "blue").`],
    [{ position: 'middle' }, `pagehand.init: position must be one of 'bottom-right', 'bottom-left', 'top-right', 'top-left' (got "middle").`],
    [{ position: 'Bottom-Left' }, /position must be one of .*\(got "Bottom-Left"\)/],
    [{ autoOpen: 'yes' }, `pagehand.init: autoOpen must be true or false (got "yes").`],
    [{ launcherText: '   ' }, `pagehand.init: launcherText must be a non-empty string (got "   ").`],
    [{ launcherText: 42 }, `pagehand.init: launcherText must be a non-empty string (got 42).`],
    [{ lang: 'Spanish please' }, `pagehand.init: lang must be a language tag such as 'en' or 'es' (got "Spanish please").`],
    [{ model: '' }, `pagehand.init: model must be a non-empty string (got "").`],
    [{ deny: 'header' }, `pagehand.init: deny must be an array of strings (got "header").`],
    [{ allowedActions: ['click', 3] }, `pagehand.init: allowedActions must be an array of strings (got an array).`],
    [{ confirm: true }, `pagehand.init: confirm must be a function (got true).`],
    [{ suggestions: 'Track my order' }, `pagehand.init: suggestions must be an array of strings (got "Track my order").`],
    [{ suggestions: ['Track my order', null] }, `pagehand.init: suggestions must be an array of strings (got an array).`],
    [{ tools: {} }, /^pagehand\.init: tools must be an array/],
    ['dark', `pagehand.init: config must be an object (got "dark").`],
  ])('%j throws a clear error', (config, message) => {
    let error: unknown;
    try {
      parseInit(config);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InitError);
    if (typeof message === 'string') expect((error as Error).message).toBe(message);
    else expect((error as Error).message).toMatch(message);
  });

  it('suggestions go to the overlay as given (the panel shows the first four)', () => {
    const suggestions = ['Track my order', 'Find a blue mug', 'Return an item', 'Talk to a person', 'Fifth'];
    const p = parseInit({ suggestions });
    expect(p.ui.suggestions).toEqual(suggestions);
    expect(p.site).toEqual({});
    expect(p.unknown).toEqual([]);
  });

  it('accepts every documented value', () => {
    for (const position of POSITIONS) expect(parseInit({ position }).ui.position).toBe(position);
    for (const theme of ['auto', 'light', 'dark'] as const) expect(parseInit({ theme }).ui.theme).toBe(theme);
    expect(parseInit({ lang: 'pt-BR' }).ui.lang).toBe('pt-BR');
    expect(parseInit({ autoOpen: false }).autoOpen).toBe(false);
  });

  it('lists fields it does not know instead of failing on them', () => {
    expect(parseInit({ launchertext: 'Hi', theme: 'light' }).unknown).toEqual(['launchertext']);
  });
});

describe('readScriptTag', () => {
  const tag = (attrs: Record<string, string>): HTMLScriptElement => {
    const s = document.createElement('script');
    for (const [k, v] of Object.entries(attrs)) s.setAttribute(k, v);
    return s;
  };

  it('reads the embed snippet: proxy, token, lang, position, model', () => {
    const warn = vi.fn();
    const d = readScriptTag(
      tag({
        src: 'http://proxy.test:8787/pagehand.js',
        'data-pagehand-token': 'tok',
        'data-lang': 'es',
        'data-position': 'bottom-left',
        'data-model': 'gpt-test',
      }),
      'http://site.test/',
      warn,
    );
    expect(d).toEqual({ proxy: 'http://proxy.test:8787', token: 'tok', lang: 'es', position: 'bottom-left', model: 'gpt-test', embed: true });
    expect(warn).not.toHaveBeenCalled();
  });

  it('takes data-pagehand-lang / -position / -model too; data-X wins when both are set', () => {
    const aliases = readScriptTag(
      tag({ 'data-pagehand-proxy': 'http://p.test', 'data-pagehand-lang': 'es', 'data-pagehand-position': 'top-right', 'data-pagehand-model': 'm1' }),
      'http://site.test/',
    );
    expect(aliases).toMatchObject({ proxy: 'http://p.test', lang: 'es', position: 'top-right', model: 'm1', embed: false });
    expect(readScriptTag(tag({ 'data-model': 'm2', 'data-pagehand-model': 'm1' }), 'http://site.test/').model).toBe('m2');
  });

  it('a position it does not know falls back to the default corner with one warning', () => {
    const warn = vi.fn();
    const d = readScriptTag(tag({ 'data-pagehand-token': 't', 'data-position': 'middle' }), 'http://site.test/', warn);
    expect(d.position).toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toMatch(/data-position="middle" is not one of bottom-right, bottom-left, top-right, top-left/);
  });

  it('the bookmarklet loader is not an embed; no tag gives no defaults', () => {
    expect(readScriptTag(tag({ 'data-pagehand-token': 't', 'data-pagehand-loader': '' }), 'http://site.test/').embed).toBe(false);
    expect(readScriptTag(null, 'http://site.test/')).toEqual({});
  });
});

describe('corners', () => {
  const def = { width: 380, height: 540, collapsed: false };

  it("the panel first sits in the site's corner; a place the user chose wins", () => {
    expect(placeIn(def, 1280, 800, 'bottom-left')).toMatchObject({ x: 12, y: 800 - 540 - 12 });
    expect(placeIn(def, 1280, 800, 'top-left')).toMatchObject({ x: 12, y: 12 });
    expect(placeIn(def, 1280, 800, 'top-right')).toMatchObject({ x: 1280 - 380 - 12, y: 12 });
    expect(placeIn(def, 1280, 800)).toEqual(placeIn(def, 1280, 800, 'bottom-right'));
    expect(placeIn({ ...def, x: 300, y: 100 }, 1280, 800, 'bottom-left')).toMatchObject({ x: 300, y: 100 });
  });

  it("the launcher is anchored to that corner of the panel's box, from the nearer viewport edges", () => {
    const box = { x: 12, y: 248, width: 380, height: 540 };
    expect(launcherAnchor(box, 'bottom-left', 1280, 800)).toEqual({ left: '12px', right: undefined, top: undefined, bottom: '12px' });
    const br = { x: 888, y: 248, width: 380, height: 540 };
    expect(launcherAnchor(br, 'bottom-right', 1280, 800)).toEqual({ left: undefined, right: '12px', top: undefined, bottom: '12px' });
    expect(launcherAnchor({ x: 888, y: 12, width: 380, height: 540 }, 'top-right', 1280, 800)).toEqual({
      left: undefined,
      right: '12px',
      top: '12px',
      bottom: undefined,
    });
  });
});

describe('init gives runs their proxy and token (a bundled site has no script tag to read them from)', () => {
  it('takes a proxy URL (trailing slash dropped) and a token as run defaults', () => {
    expect(parseInit({ proxy: 'https://proxy.example/', token: 'tok-site-0123456789' }).runDefaults).toEqual({
      proxy: 'https://proxy.example',
      token: 'tok-site-0123456789',
    });
    expect(parseInit({}).runDefaults).toEqual({});
  });

  it('refuses a proxy that is not an http(s) URL, and an empty token, naming the field', () => {
    expect(() => parseInit({ proxy: 'proxy.example' })).toThrow(/pagehand\.init: proxy must be the proxy's URL/);
    expect(() => parseInit({ proxy: 42 })).toThrow(/proxy must be/);
    expect(() => parseInit({ token: ' ' })).toThrow(/pagehand\.init: token must be a site token/);
  });
});
