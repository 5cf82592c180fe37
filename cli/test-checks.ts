/**
 * A test kit task's checks, run in the page once its run ended: text present (or absent), the
 * URL, an element's state (found by role and accessible name, as a person would find it), a
 * JavaScript expression. Each is given a few seconds to hold (the page may still be settling).
 */
import type { Page } from 'playwright-core';
import type { Check } from './test-tasks';

/** How long a check may take to hold. */
const HOLD_MS = 5000;
const POLL_MS = 200;

/** What did not hold, one line per check; empty when all held. */
export async function runChecks(page: Page, checks: readonly Check[]): Promise<string[]> {
  const failed: string[] = [];
  for (const c of checks) {
    const why = await eventually(() => checkOnce(page, c));
    if (why) failed.push(why);
  }
  return failed;
}

async function eventually(once: () => Promise<string | undefined>): Promise<string | undefined> {
  const until = Date.now() + HOLD_MS;
  for (;;) {
    let why: string | undefined;
    try {
      why = await once();
    } catch (e) {
      why = String((e as Error)?.message ?? e).split('\n')[0];
    }
    if (!why || Date.now() >= until) return why;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

const quote = (s: string): string => JSON.stringify(s.length > 80 ? `${s.slice(0, 79)}…` : s);

async function checkOnce(page: Page, c: Check): Promise<string | undefined> {
  if ('text' in c) {
    const text = await page.locator('body').innerText();
    return text.includes(c.text) ? undefined : `text ${quote(c.text)} is not on the page`;
  }
  if ('noText' in c) {
    const text = await page.locator('body').innerText();
    return text.includes(c.noText) ? `text ${quote(c.noText)} is on the page` : undefined;
  }
  if ('url' in c) {
    const url = page.url();
    const re = /^\/(.+)\/([a-z]*)$/.exec(c.url);
    const ok = re ? new RegExp(re[1]!, re[2]).test(url) : url.includes(c.url);
    return ok ? undefined : `the URL is ${url}, not ${re ? 'matching ' : 'containing '}${c.url}`;
  }
  if ('js' in c) {
    const value = await page.evaluate(c.js);
    return value ? undefined : `${quote(c.js)} is ${JSON.stringify(value) ?? String(value)}`;
  }
  const { role, name } = c.element;
  const what = `${role} ${quote(name)}`;
  const el = page.getByRole(role as Parameters<Page['getByRole']>[0], { name, exact: true });
  const n = await el.count();
  const state = c.state ?? { visible: true };
  if (!n) return state.visible === false ? undefined : `no ${what} on the page`;
  const first = el.first();
  if (state.visible !== undefined && (await first.isVisible()) !== state.visible) return `${what} is ${state.visible ? 'not visible' : 'visible'}`;
  if (state.checked !== undefined && (await first.isChecked()) !== state.checked) return `${what} is ${state.checked ? 'not checked' : 'checked'}`;
  if (state.disabled !== undefined && (await first.isDisabled()) !== state.disabled) return `${what} is ${state.disabled ? 'enabled' : 'disabled'}`;
  if (state.value !== undefined) {
    const value = await first.inputValue();
    if (value !== state.value) return `${what} holds ${quote(value)}, not ${quote(state.value)}`;
  }
  return undefined;
}
