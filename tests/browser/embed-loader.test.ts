/**
 * The site embed through its loader (dist/pagehand-loader.js) in real Chromium, against the real
 * proxy (the app `npm start` runs, behind a request log) and the scripted model: a page view pays
 * for the loader only; the agent chunk comes when the launcher is opened (fetched ahead when it is
 * pointed at), when a saved run must go on, or when a page script asks; `init` before and after it
 * both apply; what the loader's document-start hooks saw reaches the agent; a second page view
 * downloads nothing again; the loader's launcher is the agent's, pixel for pixel.
 */
import { serve } from '@hono/node-server';
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launcherCss, topLevelRules } from '../../client/loader/launcher-css';
import { OPEN_NAME } from '../../client/loader/launcher';
import { CSS } from '../../client/ui/styles';
import { en } from '../../client/ui/i18n';
import { LANGUAGES, type Lang } from '../../client/ui/languages';
import { loadStrings } from '../../client/ui/lang-load';
import { call, hasText, latestMap, refFor, useAgentStack } from './agent-harness';
import { origin, useSession } from './harness';
import { checkState, inUi, panel, sendTask, waitIn } from './ui-kit';

const session = useSession();
const stack = useAgentStack();
const VIEWPORT = { width: 1280, height: 800 };
const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));

/** Test-only: the overlay's closed shadow roots (the loader's launcher and the agent's) attached open, so locators reach them. */
const OPEN_ROOTS = `(() => {
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) {
    return attach.call(this, this.localName === 'pagehand-ui' ? { ...init, mode: 'open' } : init);
  };
})();`;

/** The agent chunk the built loader names. */
const agentPath = (): string => `/${/pagehand-agent\.[0-9A-Za-z]{8}\.js/.exec(readFileSync(`${DIST}pagehand-loader.js`, 'utf8'))![0]}`;
/** The agent's files as the build lists them (build-embed.ts). */
const agentFiles = (): { eager: string[]; engine: string[]; lazy: string[] } => JSON.parse(readFileSync(`${DIST}pagehand-agent.files.json`, 'utf8'));
/** The modules the agent's entry imports (the build's list) and the engine it imports at once: they load with it. */
const agentImports = (): string[] => [...agentFiles().eager, ...agentFiles().engine].map((f) => `/${f}`);
/** The engine's own file (client/engine.ts), which the entry imports beside the panel. */
const enginePath = (): string => `/${agentFiles().engine[0]!}`;

interface Served {
  path: string;
  status: number;
  ifNoneMatch: string | null;
  encoding: string | null;
}

/** The proxy's app behind a log of every request it answered (the proxy the pages load from). */
let proxy: { url: string; log: Served[]; close(): Promise<void> };
beforeAll(async () => {
  const log: Served[] = [];
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve(
      {
        fetch: async (req, env) => {
          const res = await stack.proxy.app.fetch(req, env);
          log.push({
            path: new URL(req.url).pathname,
            status: res.status,
            ifNoneMatch: req.headers.get('if-none-match'),
            encoding: res.headers.get('content-encoding'),
          });
          return res;
        },
        hostname: '127.0.0.1',
        port: 0,
      },
      () => resolve(s),
    );
  });
  proxy = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    log,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
});
afterAll(async () => {
  await proxy?.close();
});

let context: BrowserContext | undefined;
afterEach(async () => {
  await context?.close();
  context = undefined;
});

async function newContext(): Promise<BrowserContext> {
  context = await session.browser.newContext({ viewport: VIEWPORT, colorScheme: 'light' });
  await context.addInitScript({ content: OPEN_ROOTS });
  return context;
}

const fixture = (name: string): string => `${origin()}/fixtures/delivery/${name}?${new URLSearchParams({ proxy: proxy.url, token: stack.token })}`;

/** A page of `ctx` and the proxy paths it asked for (reset by `asked.length = 0`). */
async function pageOf(ctx: BrowserContext): Promise<{ page: Page; asked: string[]; errors: string[] }> {
  const page = await ctx.newPage();
  const asked: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => r.url().startsWith(proxy.url) && asked.push(new URL(r.url()).pathname));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  return { page, asked, errors };
}

const agentRequests = (): Served[] => proxy.log.filter((e) => e.path === agentPath());

describe('the embed through its loader', () => {
  it('loads only the loader until the launcher is used; pointing at it fetches the agent ahead without running it; opening runs it, once', async () => {
    const { page, asked } = await pageOf(await newContext());
    const before = agentRequests().length;
    await page.goto(fixture('loader-shop.html'));
    const launcher = await waitIn(page, 'button.launcher');
    await page.waitForFunction(() => (window as any).__built);
    await page.waitForLoadState('networkidle');
    expect(asked).toEqual(['/pagehand-loader.js']);
    // The API is there from the first moment, waiting for the agent.
    expect(
      await page.evaluate(() => {
        const p = (window as any).pagehand;
        return { run: typeof p.run, current: p.current(), version: p.version, agent: document.querySelectorAll('script[src*="pagehand-agent"]').length };
      }),
    ).toEqual({ run: 'function', current: undefined, version: expect.stringMatching(/^\d+\.\d+\.\d+$/), agent: 0 });
    // The product's name until the panel names it in the visitor's language (no words of every language on each page view).
    expect(await launcher.getAttribute('aria-label')).toBe('pagehand');

    await launcher.hover();
    await expect.poll(() => asked).toContain(agentPath());
    // What the entry imports is fetched ahead with it.
    for (const f of agentImports()) await expect.poll(() => asked).toContain(f);
    await page.waitForLoadState('networkidle');
    // Fetched, not run: the stub is still the API.
    expect(await page.evaluate(() => Object.getOwnPropertySymbols((window as any).pagehand).length)).toBe(1);
    expect(await page.evaluate(() => document.querySelectorAll('script[src*="pagehand-agent"]').length)).toBe(0);

    await launcher.click();
    await panel(page).waitFor();
    // The task box has the focus, as when the agent's own launcher is opened.
    await expect
      .poll(() => page.evaluate(() => (document.querySelector('pagehand-ui')?.shadowRoot?.activeElement as HTMLElement | null)?.dataset.task !== undefined))
      .toBe(true);
    // One launcher, the agent's; one download of the agent (the prefetch), the click took it from the cache.
    expect(await page.locator('pagehand-ui').count()).toBe(1);
    expect(agentRequests().length - before).toBe(1);

    // And it is the whole agent: a task from the panel runs to the end.
    stack.setPolicy(() => call('done', { summary: 'Three products.' }));
    await sendTask(page, 'Count the products');
    await waitIn(page, '[data-end="done"]');
  });

  it("the agent sees what the loader's hooks saw before it came: a closed shadow root and a listener-only target", async () => {
    const { page } = await pageOf(await newContext());
    await page.goto(fixture('loader-shop.html'));
    await page.waitForFunction(() => (window as any).__built);
    const text = await page.evaluate(async () => ((await (window as any).pagehand.ready).map() as { text: string }).text);
    // Built by the page after the loader ran and long before the agent: only the loader's hooks saw them.
    expect(text).toMatch(/button "Large size"/);
    expect(text).toMatch(/\[\w+\]\w+ "Gift wrap"/);
  });

  it('init before the agent: checked at once, shown on the launcher at once, applied to its runs; init after it applies too', async () => {
    const { page, asked } = await pageOf(await newContext());
    await page.goto(fixture('loader-init.html'));
    const launcher = await waitIn(page, 'button.launcher');
    await page.waitForLoadState('networkidle');
    expect(asked).toEqual(['/pagehand-loader.js']);
    // The onload init returned what the agent's would, and the launcher shows it at once.
    expect(await page.evaluate(() => (window as any).__init)).toEqual({ ignoredDeny: ['##nope'] });
    expect(await launcher.textContent()).toBe('Ask the shop');
    expect(await launcher.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(122, 167, 255)'); // the dark theme's accent

    // A bad config throws what the agent's init throws, and changes nothing.
    const errors = await page.evaluate(() => {
      const tryInit = (c: unknown): string => {
        try {
          (window as any).pagehand.init(c);
          return 'no error';
        } catch (e) {
          return `${(e as Error).name}: ${(e as Error).message}`;
        }
      };
      return [
        tryInit({ theme: 'blue', launcherText: 'Changed' }),
        tryInit('dark'),
        tryInit({ launcherText: 'Changed', tools: [{ name: 'click', description: 'Mine', handler() {} }] }),
      ];
    });
    expect(errors).toEqual([
      `PagehandInitError: pagehand.init: theme must be one of 'auto', 'light', 'dark' (got "blue").`,
      'PagehandInitError: pagehand.init: config must be an object (got "dark").',
      'PagehandRunError: pagehand: "click" is a built-in tool.',
    ]);
    expect(await launcher.textContent()).toBe('Ask the shop');
    expect(asked).toEqual(['/pagehand-loader.js']);

    // Before the agent, run() answers with a promise of the handle; the queued init reached the loop.
    stack.setPolicy(() => call('done', { summary: 'Read.' }));
    let from = stack.requests().length;
    const early = await page.evaluate(async () => {
      const p = (window as any).pagehand;
      const pending = p.run('Read the page', { ui: false });
      const isPromise = pending instanceof Promise;
      const handle = await pending;
      return { isPromise, result: await handle.result, sameApi: (await p.ready) === (window as any).pagehand };
    });
    expect(early).toMatchObject({ isPromise: true, result: { ok: true }, sameApi: true });
    let sent = stack.requests().slice(from);
    expect(sent.length).toBeGreaterThan(0);
    const system = sent[0]!.messages.find((m) => m.role === 'system')!.text;
    expect(system).toContain('Configured before the agent came.');
    // Its deny zone too: the staff notes never reach the model.
    expect(JSON.stringify(sent)).not.toContain('STAFF50');

    // After: the agent's own init and run (a handle at once).
    from = stack.requests().length;
    const late = await page.evaluate(async () => {
      const p = (window as any).pagehand;
      p.init({ instructions: 'Configured after the agent came.' });
      const h = p.run('Read the page again', { ui: false });
      return { handle: typeof h.stop === 'function' && !(h instanceof Promise), result: await h.result };
    });
    expect(late).toMatchObject({ handle: true, result: { ok: true } });
    sent = stack.requests().slice(from);
    const again = sent[0]!.messages.find((m) => m.role === 'system')!.text;
    expect(again).toContain('Configured after the agent came.');
    expect(again).not.toContain('Configured before');
    expect(JSON.stringify(sent)).toContain('STAFF50'); // the later init set no deny zone
  });

  it('a run saved before a navigation goes on on the next page: the loader fetches the agent there without a click', async () => {
    const ctx = await newContext();
    const { page, asked } = await pageOf(ctx);
    stack.setPolicy((req) => {
      const map = latestMap(req);
      if (hasText(map, 'Checkout')) return call('done', { summary: 'On the checkout page.' });
      return call('click', { ref: refFor(map, 'link', 'Next page') }, 'goal: go to the next page');
    });
    await page.goto(fixture('loader-shop.html'));
    await (await waitIn(page, 'button.launcher')).click();
    await panel(page).waitFor();
    asked.length = 0;
    await sendTask(page, 'Go to the next page');
    await page.waitForURL(/loader-shop-next\.html/);
    await waitIn(page, '[data-end="done"]');
    expect(asked).toContain('/pagehand-loader.js');
    expect(asked).toContain(agentPath());
    expect(await inUi(page, '[data-end="done"]').textContent()).toContain('On the checkout page.');
  });

  it('a second page view downloads nothing again: loader and agent come from the cache; the loader, once stale, comes back as a 304', async () => {
    const ctx = await newContext();
    const { page } = await pageOf(ctx);
    let mark = proxy.log.length;
    await page.goto(fixture('loader-shop.html'));
    await (await waitIn(page, 'button.launcher')).click();
    await panel(page).waitFor();
    await page.waitForLoadState('networkidle');
    // Back to the launcher for the next view: the panel left open in this tab would open at once.
    await page.evaluate(() => sessionStorage.removeItem('pagehand:panel'));
    // The first view: the loader and the agent's files, brotli-compressed (the agent possibly twice, if the click beat the prefetch).
    const first = proxy.log.slice(mark).filter((e) => /^\/pagehand/.test(e.path));
    expect(new Set(first.map((e) => `${e.path} ${e.status} ${e.encoding}`))).toEqual(
      new Set([`/pagehand-loader.js 200 br`, ...[agentPath(), ...agentImports()].map((f) => `${f} 200 br`)]),
    );

    // A new page view in the same browser: nothing from the proxy, and the launcher opens the panel.
    mark = proxy.log.length;
    await page.goto(fixture('loader-shop.html'));
    await (await waitIn(page, 'button.launcher')).click();
    await panel(page).waitFor();
    await page.waitForLoadState('networkidle');
    expect(proxy.log.slice(mark).filter((e) => /^\/pagehand/.test(e.path))).toEqual([]);

    // Past its five minutes the browser asks again with the ETag it holds (a fetch that must
    // revalidate stands in for the clock): a 304, no body; the immutable agent is never asked again.
    mark = proxy.log.length;
    const seen = await page.evaluate((url) => fetch(url, { cache: 'no-cache' }).then((r) => r.status), `${proxy.url}/pagehand-loader.js`);
    expect(seen).toBe(200);
    expect(proxy.log.slice(mark)).toEqual([{ path: '/pagehand-loader.js', status: 304, ifNoneMatch: expect.stringMatching(/^"[\w-]+-br"$/), encoding: null }]);
  });

  it("the loader's launcher is the agent's, pixel for pixel (icon, light; text, dark)", async () => {
    for (const name of ['loader-shop.html', 'loader-init.html']) {
      const { page } = await pageOf(await newContext());
      await page.goto(fixture(name));
      const launcher = await waitIn(page, 'button.launcher');
      await page.waitForLoadState('networkidle');
      const box = (await launcher.boundingBox())!;
      const clip = { x: box.x - 12, y: box.y - 12, width: box.width + 24, height: box.height + 24 };
      const loaders = await page.screenshot({ clip, animations: 'disabled' });
      await page.evaluate(() => (window as any).pagehand.ready);
      // The agent's launcher took its place.
      await expect.poll(() => page.evaluate(() => Object.getOwnPropertySymbols((window as any).pagehand).length)).toBe(0);
      expect(await page.locator('pagehand-ui').count()).toBe(1);
      expect(await inUi(page, 'button.launcher').boundingBox()).toEqual(box);
      const agents = await page.screenshot({ clip, animations: 'disabled' });
      expect(loaders.equals(agents), name).toBe(true);
      await context!.close();
      context = undefined;
    }
  });

  it('when the agent cannot be loaded: ready rejects with the reason, the console says it, and the next click tries again', async () => {
    const { page, errors } = await pageOf(await newContext());
    await page.route(`${proxy.url}/pagehand-agent.*`, (r) => r.abort());
    await page.goto(fixture('loader-shop.html'));
    const launcher = await waitIn(page, 'button.launcher');
    const reason = await page.evaluate(() =>
      (window as any).pagehand.ready.then(
        () => 'loaded',
        (e: Error) => e.message,
      ),
    );
    expect(reason).toBe(`pagehand: could not load the agent from ${proxy.url}${agentPath()} (the request failed or the page's security policy blocked it).`);
    expect(errors).toContain(reason);
    await launcher.click();
    await expect.poll(() => errors.filter((e) => e === reason).length).toBe(2);
    expect(await launcher.isVisible()).toBe(true);
    await page.unroute(`${proxy.url}/pagehand-agent.*`);
    await launcher.click();
    await panel(page).waitFor();
  });

  it('synchronous calls before the agent say to await ready (and fetch it); promise calls wait for it', async () => {
    const { page } = await pageOf(await newContext());
    await page.goto(fixture('loader-shop.html'));
    await waitIn(page, 'button.launcher');
    const out = await page.evaluate(async () => {
      const p = (window as any).pagehand;
      let thrown = '';
      try {
        p.map();
      } catch (e) {
        thrown = (e as Error).message;
      }
      const map = await p.mapAsync();
      return { thrown, mapped: map.text.includes('Grinder'), after: p.map().text.includes('Grinder') };
    });
    expect(out).toEqual({
      thrown: 'pagehand.map() is available once the agent has loaded: await pagehand.ready first (the embed loads the agent on demand).',
      mapped: true,
      after: true,
    });
  });
});

/**
 * Holds the engine's file on its way to `page` until `release` is called (the panel's files pass):
 * the panel is tested before the engine arrived, whatever the machine's speed. `fail` aborts it
 * instead.
 */
async function holdEngine(page: Page): Promise<{ release(): void; fail(): void; asked: Promise<void> }> {
  let asked!: () => void;
  const seen = new Promise<void>((r) => (asked = r));
  let go!: (ok: boolean) => void;
  const gate = new Promise<boolean>((r) => (go = r));
  await page.route(`${proxy.url}${enginePath()}`, async (route) => {
    asked();
    if (await gate) await route.continue();
    else await route.abort();
  });
  return { release: () => go(true), fail: () => go(false), asked: seen };
}

/** `pagehand.map()`: 'mapped' once the engine is there, else the stub's error. */
const pageMap = (page: Page): Promise<string> =>
  page.evaluate(() => {
    try {
      return (window as any).pagehand.map().text.includes('Grinder') ? 'mapped' : 'no page text';
    } catch (e) {
      return (e as Error).message;
    }
  });

describe('the panel before the engine', () => {
  it('opening the launcher asks for the panel and the engine together; the visitor types while the engine is held, Send waits (shown) and runs it when the engine arrives', async () => {
    const { page, asked } = await pageOf(await newContext());
    const engine = await holdEngine(page);
    await page.goto(fixture('loader-shop.html'));
    const launcher = await waitIn(page, 'button.launcher');
    await page.waitForLoadState('networkidle');
    asked.length = 0;
    await launcher.click();
    // The engine is requested at the click, with the panel's files, not after them.
    await engine.asked;
    expect(asked).toEqual(expect.arrayContaining([agentPath(), ...agentImports()]));
    await panel(page).waitFor();
    // The panel works: the task box has the focus and takes what the visitor types.
    await page.keyboard.type('Count the products');
    expect(await inUi(page, '[data-task]').inputValue()).toBe('Count the products');
    // …while the engine is not there: window.pagehand is still the loader's stub.
    expect(await pageMap(page)).toMatch(/^pagehand\.map\(\) is available once the agent has loaded/);

    stack.setPolicy(() => call('done', { summary: 'Three products.' }));
    const from = stack.requests().length;
    await page.keyboard.press('Enter');
    const t = en;
    const waiting = await waitIn(page, '[data-waiting][role="status"]');
    expect(await waiting.textContent()).toBe(t.waitingAgent);
    expect(await inUi(page, '[data-send]').textContent()).toBe(t.sendWaiting);
    expect(await inUi(page, '[data-send]').isDisabled()).toBe(true);
    expect(await inUi(page, '[data-task]').inputValue()).toBe('Count the products');
    await checkState(page, 'embed-send-waits-for-engine');
    expect(stack.requests().length).toBe(from);

    engine.release();
    await waitIn(page, '[data-end="done"]');
    expect(await inUi(page, '[data-end="done"]').textContent()).toContain('Three products.');
    const sent = stack.requests()[from]!;
    expect(sent.messages.map((m) => m.text).join('\n')).toContain('Count the products');
    expect(await pageMap(page)).toBe('mapped');
  });

  it('page calls before the engine go to the panel: close() hides it, toggle() shows it again', async () => {
    const { page } = await pageOf(await newContext());
    const engine = await holdEngine(page);
    await page.goto(fixture('loader-shop.html'));
    await (await waitIn(page, 'button.launcher')).click();
    await panel(page).waitFor();
    await page.evaluate(() => (window as any).pagehand.close());
    await expect.poll(() => page.locator('pagehand-ui section.panel, pagehand-ui button.launcher').count()).toBe(0);
    await page.evaluate(() => (window as any).pagehand.toggle());
    await panel(page).waitFor();
    engine.release();
    await page.evaluate(() => (window as any).pagehand.ready);
    expect(await panel(page).isVisible()).toBe(true);
  });

  it('an engine that fails to load: the panel says so and gives the typed task back; ready rejects', async () => {
    const { page } = await pageOf(await newContext());
    const engine = await holdEngine(page);
    await page.goto(fixture('loader-shop.html'));
    await (await waitIn(page, 'button.launcher')).click();
    await panel(page).waitFor();
    await page.keyboard.type('Count the products');
    await page.keyboard.press('Enter');
    await waitIn(page, '[data-waiting]');
    engine.fail();
    const alert = await waitIn(page, '.err[role="alert"]');
    expect(await alert.textContent()).toContain('The agent could not be loaded, so your task was not sent');
    await expect.poll(() => inUi(page, '[data-task]').inputValue()).toBe('Count the products');
    expect(await inUi(page, '[data-send]').isDisabled()).toBe(false);
    expect(await page.locator('pagehand-ui [data-waiting]').count()).toBe(0);
    expect(
      await page.evaluate(() =>
        (window as any).pagehand.ready.then(
          () => 'loaded',
          (e: Error) => e.message,
        ),
      ),
    ).toMatch(/engine/);
    // Sending again says the same, and keeps the text.
    await page.keyboard.press('Enter');
    await expect.poll(() => inUi(page, '[data-task]').inputValue()).toBe('Count the products');
    expect(await inUi(page, '.err[role="alert"]').count()).toBe(1);
  });
});

describe('what a page script can do with the loader', () => {
  it("cannot keep the loader's hooks once the agent is there, nor change the stub", async () => {
    const { page } = await pageOf(await newContext());
    await page.goto(fixture('loader-shop.html'));
    await waitIn(page, 'button.launcher');
    const out = await page.evaluate(async () => {
      const w = window as any;
      const stub = w.pagehand;
      const key = Symbol.for('pagehand.handoff');
      const before = typeof stub[key]?.modules?.hooks?.closedRootOf;
      stub.run = () => 'replaced';
      w.pagehand = { fake: true };
      const replaced = stub.run === 'replaced' || w.pagehand.fake === true;
      const full = await stub.ready;
      return {
        before,
        replaced,
        afterOnStub: stub[key],
        afterOnApi: Object.getOwnPropertySymbols(w.pagehand).length,
        stubForwards:
          stub.current() === full.current() &&
          stub.describe(document.querySelector('h2')).name === 'Grinder' &&
          stub.map().elements.length === full.map().elements.length,
      };
    });
    expect(out).toEqual({ before: 'function', replaced: false, afterOnStub: undefined, afterOnApi: 0, stubForwards: true });
  });

  it("a page that wraps attachShadow after the loader ran does not catch the agent's closed root", async () => {
    context = await session.browser.newContext({ viewport: VIEWPORT });
    const { page } = await pageOf(context);
    await page.goto(fixture('loader-shop.html'));
    await page.waitForFunction(() => (window as any).__built);
    const caught = await page.evaluate(async () => {
      const w = window as any;
      w.__roots = [];
      const attach = Element.prototype.attachShadow;
      Element.prototype.attachShadow = function (this: Element, init: ShadowRootInit) {
        const root = attach.call(this, init);
        w.__roots.push(this.localName);
        return root;
      };
      await w.pagehand.ready;
      w.pagehand.open();
      return {
        roots: w.__roots,
        host: !!document.querySelector('pagehand-ui'),
        open: document.querySelector('pagehand-ui')!.shadowRoot,
        pageWrapperKept: Element.prototype.attachShadow !== attach,
      };
    });
    expect(caught).toEqual({ roots: [], host: true, open: null, pageWrapperKept: true });
  });

  it('a page that defines `pagehand` first keeps it: the loader installs nothing', async () => {
    const { page, asked } = await pageOf(await newContext());
    await page.addInitScript({ content: 'window.pagehand = { mine: true };' });
    await page.goto(fixture('loader-shop.html'));
    await page.waitForFunction(() => (window as any).__built);
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => ({ mine: (window as any).pagehand.mine, ui: document.querySelectorAll('pagehand-ui').length }))).toEqual({
      mine: true,
      ui: 0,
    });
    expect(asked).toEqual(['/pagehand-loader.js']);
  });

  it('the npm entry on a page where the loader came first says to use one of the two, until the agent is there', async () => {
    const site = await build({
      stdin: {
        contents: `import { run } from ${JSON.stringify(`${DIST}esm/index.js`)};\nwindow.__npmRun = (t) => { try { return typeof run(t, { ui: false }).stop; } catch (e) { return e.message; } };`,
        resolveDir: DIST,
        loader: 'js',
      },
      bundle: true,
      format: 'iife',
      write: false,
      logLevel: 'silent',
    });
    const { page } = await pageOf(await newContext());
    await page.goto(fixture('loader-shop.html'));
    await waitIn(page, 'button.launcher');
    await page.addScriptTag({ content: site.outputFiles[0]!.text });
    expect(await page.evaluate(() => (window as any).__npmRun('Count the products'))).toBe(
      'pagehand: this page also loads the embed (pagehand-loader.js), which installed pagehand first. Use one of the two; with the embed, call window.pagehand after `await window.pagehand.ready`.',
    );
    stack.setPolicy(() => call('done', { summary: 'Counted.' }));
    await page.evaluate(() => (window as any).pagehand.ready);
    expect(await page.evaluate(() => (window as any).__npmRun('Count the products'))).toBe('function');
  });

  it('a hand not every run needs loads on its first use, not with the agent: select_option fetches the on-demand chunk, once, and works', async () => {
    const { page, asked } = await pageOf(await newContext());
    await page.goto(fixture('loader-form.html'));
    await page.evaluate(() => (window as any).pagehand.ready);
    await page.waitForLoadState('networkidle');
    const lazy = (JSON.parse(readFileSync(`${DIST}pagehand-agent.files.json`, 'utf8')) as { lazy: string[] }).lazy.map((f) => `/${f}`);
    const onDemand = lazy.filter((f) => f.startsWith('/pagehand-agent-on-demand.'));
    expect(onDemand).toHaveLength(1);
    // The agent is here and maps the page; nothing loaded on demand yet.
    expect(asked).toContain(agentPath());
    expect(asked.filter((p) => lazy.includes(p))).toEqual([]);
    const map = await page.evaluate(() => (window as any).pagehand.mapAsync().then((m: { text: string }) => m.text));
    const ref = refFor(map, 'combobox', 'Size');
    const first = await page.evaluate((r) => (window as any).pagehand.act({ name: 'select_option', args: { ref: r, option: 'Large' } }), ref);
    expect(first.ok, first.message).toBe(true);
    expect(await page.locator('#size').inputValue()).toBe('Large');
    const second = await page.evaluate((r) => (window as any).pagehand.act({ name: 'select_option', args: { ref: r, option: 'Small' } }), ref);
    expect(second.ok, second.message).toBe(true);
    expect(await page.locator('#size').inputValue()).toBe('Small');
    expect(asked.filter((p) => lazy.includes(p))).toEqual(onDemand);
  });

  it('under a strict CSP (nonces only, Trusted Types required) the agent, the modules it imports and what it loads on first use all load', async () => {
    const { page, asked, errors } = await pageOf(await newContext());
    const violations: string[] = [];
    page.on('console', (m) => /Content Security Policy|Trusted Type/i.test(m.text()) && violations.push(m.text()));
    const mark = proxy.log.length;
    await page.goto(fixture('loader-csp.html'));
    await (await waitIn(page, 'button.launcher')).click();
    await panel(page).waitFor();
    await page.evaluate(() => (window as any).pagehand.ready);
    for (const f of [agentPath(), ...agentImports()]) expect(asked).toContain(f);
    const map = await page.evaluate(() => (window as any).pagehand.mapAsync().then((m: { text: string }) => m.text));
    const r = await page.evaluate(
      (ref) => (window as any).pagehand.act({ name: 'select_option', args: { ref, option: 'Large' } }),
      refFor(map, 'combobox', 'Size'),
    );
    expect(r.ok, r.message).toBe(true);
    expect(await page.locator('#size').inputValue()).toBe('Large');
    expect(asked.some((p) => p.startsWith('/pagehand-agent-on-demand.'))).toBe(true);
    expect(violations).toEqual([]);
    // Every file came (none refused); the console's only complaint is the browser refusing the
    // plain script URL the loader tries before its Trusted Types policy (and the page's missing favicon).
    expect(proxy.log.slice(mark).filter((e) => e.status >= 400)).toEqual([]);
    expect(errors.filter((e) => !/requires 'TrustedScriptURL' assignment/.test(e) && !/status of 404 \(Not Found\)/.test(e))).toEqual([]);
  });

  it('the agent chunk loaded by itself defines nothing and says why', async () => {
    const { page, errors } = await pageOf(await newContext());
    await page.goto(`${origin()}/fixtures/delivery/account.html`);
    await page.addScriptTag({ url: `${proxy.url}${agentPath()}`, type: 'module' }).catch(() => undefined);
    await expect.poll(() => errors.some((e) => e.includes('the agent chunk runs only when pagehand-loader.js loads it'))).toBe(true);
    expect(await page.evaluate(() => 'pagehand' in window)).toBe(false);
  });
});

describe("the loader's copies of the overlay's launcher stay equal to it", () => {
  it("the name and the stylesheet's launcher rules (the anchoring is one function, ui/storage.ts's)", async () => {
    // The overlay's launcher, in every language, keeps the name the loader's had (what a speech user says to click it).
    for (const lang of Object.keys(LANGUAGES) as Lang[]) expect((await loadStrings(lang)).expand).toContain(OPEN_NAME);
    const css = launcherCss(CSS);
    // Whole rules: as many opening braces as closing ones, the themes' multi-line rule included.
    expect(css.split('{').length).toBe(css.split('}').length);
    const kept = topLevelRules(css);
    for (const start of ['.ph{', '.ph.dark{', '@media (prefers-color-scheme:dark)', ':host{', ':focus-visible{', '.launcher{', '.launcher.labelled{']) {
      expect(
        kept.filter((r) => r.startsWith(start)),
        start,
      ).toHaveLength(1);
    }
    for (const rule of kept) expect(topLevelRules(CSS)).toContain(rule);
    expect(css).not.toContain('.panel');
  });
});
