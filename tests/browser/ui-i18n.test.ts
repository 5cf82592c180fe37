/**
 * The panel's languages in real Chromium: each language renders the panel whole (its words in
 * place, nothing pushed out of the panel), Arabic and Japanese photographed (.tmp/ui-shots/) and
 * run through axe — right to left, the layout mirrors and the panel hangs from its right edge.
 * Which language a page gets: on a site's embed its data-lang, else <html lang>, else the
 * browser's languages, and only that language's file is downloaded; on a stranger's page
 * (bookmarklet, userscript) the browser's languages whatever the page says. The menu switches
 * the language, the choice is remembered, and the agent answers in it.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { en, type Strings } from '../../client/ui/i18n';
import { loadStrings } from '../../client/ui/lang-load';
import { LANGUAGES, type Lang } from '../../client/ui/languages';
import { call, latestMap, refFor, sequence, useAgentStack } from './agent-harness';
import { bundleSource, origin } from './harness';
import { bookmarkletReady, checkState, clickBookmarklet, inUi, LIGHT_BG, openPanel, panel, revealOverlay, sendTask, useUiSession, waitIn } from './ui-kit';

const session = useUiSession();
const stack = useAgentStack();
const VIEWPORT = { width: 1280, height: 800 };
const CODES = Object.keys(LANGUAGES) as Lang[];
const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));

/** Each language's strings, as the panel has them. */
const tables = new Map<Lang, Strings>();
for (const code of CODES) tables.set(code, await loadStrings(code));
const t = (code: Lang): Strings => tables.get(code)!;

/** A string as esbuild writes it into the build (characters past ASCII escaped). */
const asBuilt = (s: string): string =>
  s.replace(/[^\x00-\x7f]/g, (c) => {
    const n = c.charCodeAt(0);
    return n < 0x100 ? `\\x${n.toString(16).toUpperCase().padStart(2, '0')}` : `\\u${n.toString(16).toUpperCase().padStart(4, '0')}`;
  });

/** The language files of the current build (pagehand-agent-fr.HASH.js …), by language. */
const langFiles = (): Partial<Record<Lang, string>> => {
  const files = JSON.parse(readFileSync(`${DIST}pagehand-agent.files.json`, 'utf8')) as { lazy: string[] };
  const out: Partial<Record<Lang, string>> = {};
  for (const f of files.lazy) {
    const m = /^pagehand-agent-([a-z]{2})\.[0-9A-Za-z]{8}\.js$/.exec(f);
    if (m && m[1]! in LANGUAGES) out[m[1] as Lang] = f;
  }
  return out;
};

/** The overlay's root in `attrs` (it has no box of its own: its parts are fixed, so it is never "visible"). */
const rootIs = (page: Page, attrs: string): Promise<void> => inUi(page, `.ph${attrs}`).waitFor({ state: 'attached' });

let context: BrowserContext | undefined;
afterEach(async () => {
  await context?.close();
  context = undefined;
});

/** A fresh browser whose languages are `locale`'s, the overlay's root opened for the tests. */
async function browserIn(locale: string): Promise<BrowserContext> {
  context = await session.browser.newContext({ viewport: VIEWPORT, colorScheme: 'light', locale });
  await revealOverlay(context);
  return context;
}

/** What the panel shows in its own words, and where (viewport boxes). */
function layoutOf(page: Page) {
  return page.evaluate(() => {
    const root = document.querySelector('pagehand-ui')!.shadowRoot!;
    const ph = root.querySelector('.ph') as HTMLElement;
    const panel = root.querySelector('section.panel') as HTMLElement;
    const box = (sel: string) => (root.querySelector(sel) as HTMLElement).getBoundingClientRect().toJSON();
    const p = panel.getBoundingClientRect();
    // Anything drawn outside the panel's box, and any row wider than the panel (a word pushed out).
    const outside = [...panel.querySelectorAll('header *, footer *, .log *')]
      .filter((el) => el.getClientRects().length && !el.closest('.sr'))
      .filter((el) => {
        const r = el.getBoundingClientRect();
        return r.left < p.left - 0.5 || r.right > p.right + 0.5;
      })
      .map((el) => `${el.localName}.${el.className}`);
    const overflowing = [...panel.querySelectorAll('header, footer, footer .row, .log')]
      .filter((el) => el.scrollWidth > el.clientWidth + 1)
      .map((el) => `${el.localName}.${el.className}`);
    return {
      lang: ph.getAttribute('lang'),
      dir: ph.getAttribute('dir'),
      direction: getComputedStyle(panel).direction,
      label: root.querySelector('label[for="ph-task"]')!.textContent,
      send: root.querySelector('[data-send]')!.textContent,
      intro: root.querySelector('.intro')!.textContent,
      menu: (root.querySelector('[data-lang-menu]') as HTMLSelectElement).value,
      menuName: root.querySelector('[data-lang-menu]')!.getAttribute('aria-label'),
      closeName: root.querySelector('[data-close]')!.getAttribute('aria-label'),
      panel: p.toJSON(),
      title: box('header h2'),
      close: box('[data-close]'),
      sendBox: box('[data-send]'),
      hint: box('#ph-task-hint'),
      outside,
      overflowing,
    };
  });
}

describe('each language renders the panel', () => {
  it('all of them: their words in place, nothing outside the panel; right to left for Arabic and Hebrew, mirrored', async () => {
    const page = await session.context.newPage();
    page.on('pageerror', (e) => console.error('[page error]', e.message));
    await page.goto(`${origin()}/fixtures/ui/account.html`);
    await page.addScriptTag({ content: bundleSource() });
    await page.emulateMedia({ colorScheme: 'light' });
    await openPanel(page, stack);
    for (const code of CODES) {
      await page.evaluate((lang) => (window as any).pagehand.open({ lang }), code);
      await rootIs(page, `[lang="${code}"]`);
      const l = await layoutOf(page);
      const rtl = code === 'ar' || code === 'he';
      expect(l, code).toMatchObject({
        lang: code,
        dir: rtl ? 'rtl' : 'ltr',
        direction: rtl ? 'rtl' : 'ltr',
        label: t(code).taskLabel,
        send: t(code).send,
        intro: t(code).intro,
        menu: code,
        menuName: t(code).language,
        closeName: t(code).close,
        outside: [],
        overflowing: [],
      });
      // Mirrored: the title at the start side, the window buttons at the end, Send at the end of its row.
      if (rtl) {
        expect(l.title.x, code).toBeGreaterThan(l.close.x);
        expect(l.sendBox.x, code).toBeLessThan(l.hint.x);
      } else {
        expect(l.title.x, code).toBeLessThan(l.close.x);
        expect(l.sendBox.x, code).toBeGreaterThan(l.hint.x);
      }
      // The same place on screen in either direction: the site's corner, 12 px in.
      expect(Math.round(VIEWPORT.width - l.panel.x - l.panel.width), code).toBe(12);
    }
    await page.close();
  });

  for (const code of ['ar', 'ja'] as const) {
    it(`${code}: photographed idle and asking, axe finds nothing serious`, async () => {
      stack.setPolicy(
        sequence(
          (req) => call('click', { ref: refFor(latestMap(req), 'button', 'Delete account') }, 'goal: delete the account'),
          call('done', { summary: 'Declined.', success: false }),
        ),
      );
      const page = await session.context.newPage();
      await page.goto(`${origin()}/fixtures/ui/account.html`);
      await page.addScriptTag({ content: bundleSource() });
      await page.emulateMedia({ colorScheme: 'light' });
      await openPanel(page, stack, { lang: code });
      await rootIs(page, `[lang="${code}"]`);
      await checkState(page, `lang-${code}-idle`, { background: LIGHT_BG });
      await sendTask(page, code === 'ar' ? 'احذف حسابي' : 'アカウントを削除して');
      await waitIn(page, '[data-confirm][data-armed]');
      const card = await inUi(page, '[data-confirm]').textContent();
      expect(card).toContain(t(code).confirmTitle);
      expect(card).toContain(t(code).allowIt(t(code).kinds.deletion));
      expect(card).toContain(t(code).allowKind(t(code).kinds.deletion));
      expect(await inUi(page, '[data-progress]').textContent()).toContain(t(code).step(1, 40).slice(0, 3));
      // Every button's words inside the button (none cut off).
      const cut = await page.evaluate(() =>
        [...document.querySelector('pagehand-ui')!.shadowRoot!.querySelectorAll('[data-confirm] button, footer button')]
          .filter((b) => b.scrollWidth > b.clientWidth + 1 || b.scrollHeight > b.clientHeight + 1)
          .map((b) => b.textContent),
      );
      expect(cut).toEqual([]);
      await checkState(page, `lang-${code}-confirm`, { background: LIGHT_BG });
      await inUi(page, '[data-deny]').click();
      await waitIn(page, '[data-end]');
      await page.close();
    });
  }

  it('right to left, the panel hangs from its right edge: resized by its bottom-left grip, that edge stays put', async () => {
    const page = await session.context.newPage();
    await page.goto(`${origin()}/fixtures/ui/account.html`);
    await page.addScriptTag({ content: bundleSource() });
    await openPanel(page, stack, { lang: 'he' });
    await rootIs(page, '[dir="rtl"]');
    const before = (await panel(page).boundingBox())!;
    // The grip is the bottom-left corner, right to left.
    await page.mouse.move(before.x + 3, before.y + before.height - 3);
    await page.mouse.down();
    await page.mouse.move(before.x - 57, before.y + before.height - 3, { steps: 5 });
    await page.mouse.up();
    await expect.poll(async () => Math.round((await panel(page).boundingBox())!.width)).toBe(Math.round(before.width + 60));
    const after = (await panel(page).boundingBox())!;
    expect(Math.round(after.x + after.width)).toBe(Math.round(before.x + before.width));
    // The new size is remembered and the panel is drawn there again (a repaint keeps the right edge).
    await page.evaluate(() => (window as any).pagehand.open({}));
    const again = (await panel(page).boundingBox())!;
    expect([Math.round(again.x), Math.round(again.width)]).toEqual([Math.round(after.x), Math.round(after.width)]);
    await page.close();
  });
});

describe("which language: a site's embed", () => {
  /** The embed page (loader) in a browser speaking `locale`; the launcher clicked; the proxy's language files asked for. */
  async function openEmbed(locale: string, params: Record<string, string>): Promise<{ page: Page; asked: string[] }> {
    const ctx = await browserIn(locale);
    const page = await ctx.newPage();
    const asked: string[] = [];
    page.on('request', (r) => r.url().startsWith(stack.proxyUrl) && asked.push(new URL(r.url()).pathname.slice(1)));
    page.on('pageerror', (e) => console.error('[page error]', e.message));
    await page.goto(`${origin()}/fixtures/delivery/i18n-embed.html?${new URLSearchParams({ proxy: stack.proxyUrl, token: stack.token, ...params })}`);
    await (await waitIn(page, 'button.launcher')).click();
    await panel(page).waitFor();
    return { page, asked };
  }
  const shown = (page: Page) => inUi(page, '.ph').getAttribute('lang');
  /** The language files the page downloaded. */
  const langsAsked = (asked: string[]): Lang[] => {
    const files = langFiles();
    return CODES.filter((c) => files[c] && asked.includes(files[c]!));
  };

  it('data-lang first (over <html lang> and the browser), and only its file is downloaded', async () => {
    const { page, asked } = await openEmbed('ja-JP', { html: 'fr', 'data-lang': 'de' });
    expect(await shown(page)).toBe('de');
    expect(await inUi(page, '[data-send]').textContent()).toBe(t('de').send);
    expect(langsAsked(asked)).toEqual(['de']);
  });

  it('then the page’s <html lang> (over the browser)', async () => {
    const { page, asked } = await openEmbed('ja-JP', { html: 'fr-CA' });
    expect(await shown(page)).toBe('fr');
    expect(langsAsked(asked)).toEqual(['fr']);
  });

  it('then the browser’s languages, in their order, past the ones we lack', async () => {
    const { page, asked } = await openEmbed('ja-JP', { html: '' });
    expect(await shown(page)).toBe('ja');
    expect(langsAsked(asked)).toEqual(['ja']);
    await context!.close();
    const sv = await openEmbed('sv-SE', { html: 'fi' });
    expect(await shown(sv.page)).toBe('en');
  });

  it('an English page for an English browser downloads no language file at all, and the panel’s own files hold no other language', async () => {
    const { page, asked } = await openEmbed('en-US', { html: 'en' });
    expect(await shown(page)).toBe('en');
    expect(await inUi(page, '[data-send]').textContent()).toBe(en.send);
    expect(langsAsked(asked)).toEqual([]);
    // What opening the panel loads (the entry and its imports): English only.
    const files = JSON.parse(readFileSync(`${DIST}pagehand-agent.files.json`, 'utf8')) as { entry: string; eager: string[] };
    const panelCode = [files.entry, ...files.eager].map((f) => readFileSync(`${DIST}${f}`, 'utf8')).join('\n');
    expect(panelCode).toContain(asBuilt(en.intro));
    for (const code of CODES.filter((c) => c !== 'en')) expect(panelCode, code).not.toContain(asBuilt(t(code).intro));
  });
});

describe("which language: a stranger's page", () => {
  it("the bookmarklet speaks the browser's language, whatever the page's <html lang>, init or open say", async () => {
    const ctx = await browserIn('ko-KR');
    const page = await ctx.newPage();
    await page.goto(`${origin()}/fixtures/delivery/i18n-page.html?html=fr`);
    await clickBookmarklet(page, stack);
    await panel(page).waitFor();
    expect(await inUi(page, '.ph').getAttribute('lang')).toBe('ko');
    await bookmarkletReady(page);
    // The page's scripts try to change it.
    await page.evaluate(() => {
      (window as any).pagehand.init({ lang: 'de' });
      (window as any).pagehand.open({ lang: 'es' });
    });
    await page.waitForTimeout(0);
    expect(await inUi(page, '.ph').getAttribute('lang')).toBe('ko');
    expect(await inUi(page, '[data-send]').textContent()).toBe(t('ko').send);
  });

  it("the userscript speaks the browser's language, whatever the page says", async () => {
    const res = await fetch(`${stack.proxyUrl}/pagehand.user.js`);
    const userscript = await res.text();
    const ctx = await browserIn('pl-PL');
    // The manager's few calls the start makes (no run here): storage that keeps nothing.
    await ctx.addInitScript({
      content: `window.GM_info = { scriptHandler: 'Tampermonkey' };
        window.GM_getValue = (k, d) => d; window.GM_setValue = () => {}; window.GM_deleteValue = () => {};
        window.GM_listValues = () => []; window.GM_xmlhttpRequest = () => ({ abort() {} });`,
    });
    await ctx.addInitScript({ content: userscript });
    const page = await ctx.newPage();
    await page.goto(`${origin()}/fixtures/delivery/i18n-page.html?html=it`);
    await page.waitForFunction(() => !!(window as any).pagehand);
    await page.evaluate(() => {
      (window as any).pagehand.init({ lang: 'de' });
      (window as any).pagehand.open({ lang: 'es' });
    });
    await panel(page).waitFor();
    expect(await inUi(page, '.ph').getAttribute('lang')).toBe('pl');
    expect(await inUi(page, 'label[for="ph-task"]').textContent()).toBe(t('pl').taskLabel);
  });
});

describe('the language menu', () => {
  it("switches the panel (and the agent's replies), and is remembered on the site's next page", async () => {
    const ctx = await browserIn('en-US');
    const page = await ctx.newPage();
    const url = `${origin()}/fixtures/delivery/i18n-embed.html?${new URLSearchParams({ proxy: stack.proxyUrl, token: stack.token, html: 'en' })}`;
    await page.goto(url);
    await (await waitIn(page, 'button.launcher')).click();
    await panel(page).waitFor();
    expect(await inUi(page, '.ph').getAttribute('lang')).toBe('en');
    // The user picks Hebrew, with the keyboard as with the mouse: a native select.
    await inUi(page, '[data-lang-menu]').selectOption('he');
    await rootIs(page, '[lang="he"][dir="rtl"]');
    expect(await inUi(page, '[data-send]').textContent()).toBe(t('he').send);
    expect(await page.evaluate(() => localStorage.getItem('pagehand:lang'))).toBe('"he"');

    stack.setPolicy(() => call('done', { summary: 'בסדר.' }));
    const from = stack.requests().length;
    await sendTask(page, 'Count the products');
    await waitIn(page, '[data-end="done"]');
    expect(stack.requests()[from]!.messages.find((m) => m.role === 'system')!.text).toContain('Answer the user in this language: he.');

    // Folded, the launcher is named in Hebrew; on the next page the panel opens in Hebrew.
    await inUi(page, '[data-collapse]').click();
    expect(await (await waitIn(page, 'button.launcher')).getAttribute('aria-label')).toBe(t('he').expand);
    await page.goto(url);
    await (await waitIn(page, 'button.launcher')).click();
    await rootIs(page, '[lang="he"]');
    expect(await inUi(page, '[data-lang-menu]').inputValue()).toBe('he');
    // Back to English: English is built in, at once.
    await inUi(page, '[data-lang-menu]').selectOption('en');
    await rootIs(page, '[lang="en"][dir="ltr"]');
    expect(await inUi(page, '[data-send]').textContent()).toBe(en.send);
  });
});
