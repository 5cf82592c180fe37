/**
 * The bookmarklet as the install page hands it out: on a page of another origin it loads the
 * bundle from the proxy and opens the panel; clicked again it toggles the panel and never
 * loads the bundle twice; when the proxy is unreachable it says so and points to the userscript.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { bookmarklet, embedSnippet } from '../../server/node/loader';
import { useAgentStack } from './agent-harness';
import { origin, useSession } from './harness';
import { inUi, panel } from './ui-kit';

const session = useSession();
const stack = useAgentStack();

/** What the browser runs when the bookmark is clicked. */
const click = (page: Page, href: string) => page.evaluate(decodeURI(href.slice('javascript:'.length)));

describe('bookmarklet', () => {
  it('loads the bundle from the proxy, opens the panel, and toggles it on the next click', async () => {
    const page = await session.context.newPage();
    await page.goto(`${origin()}/fixtures/agent/counter.html`);
    expect(new URL(stack.proxyUrl).origin).not.toBe(origin());
    const href = bookmarklet(stack.proxyUrl, stack.token);
    await click(page, href);
    await panel(page).waitFor({ state: 'visible' });
    expect(await page.evaluate(() => typeof (window as any).pagehand?.run)).toBe('function');
    await click(page, href);
    await panel(page).waitFor({ state: 'hidden' });
    await click(page, href);
    await panel(page).waitFor({ state: 'visible' });
    expect(await page.locator('script[src$="/pagehand.js"]').count()).toBe(1);
    await page.close();
  });

  it('says what is wrong when the bundle cannot be loaded, and points to the userscript', async () => {
    const page = await session.context.newPage();
    await page.goto(`${origin()}/fixtures/agent/counter.html`);
    const alerted = new Promise<string>((resolve) => page.once('dialog', (d) => void d.dismiss().then(() => resolve(d.message()))));
    await click(page, bookmarklet('http://127.0.0.1:9', 'tok'));
    expect(await alerted).toMatch(/could not load http:\/\/127\.0\.0\.1:9\/pagehand\.js[\s\S]*userscript/);
    expect(await page.evaluate(() => 'pagehand' in window)).toBe(false);
    await page.close();
  });

  /** The counter page served with this content security policy. */
  async function withPolicy(policy: string): Promise<Page> {
    const page = await session.context.newPage();
    page.on('pageerror', (e) => console.error('[page error]', e.message));
    await page.goto(`${origin()}/fixtures/agent/counter.html?csp=${encodeURIComponent(policy)}`);
    return page;
  }

  it('loads on a page that enforces Trusted Types, and the panel works there', async () => {
    const page = await withPolicy("require-trusted-types-for 'script'");
    const violations: string[] = [];
    page.on('console', (m) => /trusted ?type/i.test(m.text()) && violations.push(m.text()));
    await click(page, bookmarklet(stack.proxyUrl, stack.token));
    await panel(page).waitFor({ state: 'visible' });
    // The panel renders and takes a task (which then runs against the scripted model).
    await inUi(page, 'textarea').fill('Count to three');
    expect(await inUi(page, 'textarea').inputValue()).toBe('Count to three');
    expect(violations).toEqual([]);
    await page.close();
  });

  it('says what is wrong, instead of failing silently, when Trusted Types allow it no policy', async () => {
    const page = await withPolicy("require-trusted-types-for 'script'; trusted-types 'none'");
    const alerted = new Promise<string>((resolve) => page.once('dialog', (d) => void d.dismiss().then(() => resolve(d.message()))));
    await click(page, bookmarklet(stack.proxyUrl, stack.token));
    expect(await alerted).toMatch(/could not load .*pagehand\.js[\s\S]*userscript/);
    expect(await page.evaluate(() => 'pagehand' in window)).toBe(false);
    await page.close();
  });

  it('the site embed snippet shows the launcher, which opens the panel', async () => {
    const page = await session.context.newPage();
    await page.goto(`${origin()}/fixtures/agent/counter.html`);
    const snippet = embedSnippet(stack.proxyUrl, stack.token);
    await page.evaluate((html) => {
      const tpl = document.createElement('template');
      tpl.innerHTML = html;
      const old = tpl.content.querySelector('script')!;
      const s = document.createElement('script'); // a parsed <script> from innerHTML would not run
      for (const a of old.attributes) s.setAttribute(a.name, a.value);
      document.head.append(s);
    }, snippet);
    await inUi(page, 'button.launcher').click();
    await panel(page).waitFor({ state: 'visible' });
    await page.close();
  });
});

