/**
 * What the replay tests and `npm run bench:replay` share: the scripted model for each agent
 * fixture (webmail, shop, wizard, lazy list — it reads the map as a model would), the scripted
 * UI changes a site might ship (a renamed button, a moved field, an extra dialog), the models
 * that repair a replay after each, and a driver for `pagehand.replay` that follows the run
 * across full page loads (the events are kept in sessionStorage, as agent-run.ts does for runs).
 */
import type { Page } from 'playwright-core';
import type { Recording } from '../../client/agent/public-types';
import { call, hasText, latestMap, mapElements, mapUrl, refFor, refNear, type Policy, wizardModel } from './agent-harness';
import { RECORDER } from './agent-run';
import { shopModel } from './loop-tasks';
import { bundleSource, origin, type Session } from './harness';

const userText = (req: Parameters<Policy>[0]): string =>
  req.messages
    .filter((m) => m.role === 'user')
    .map((m) => m.text)
    .join('\n');

/** The recording block a repair request shows the model (between the data markers). */
export function recordingBlock(req: Parameters<Policy>[0]): string {
  return /# The recording being replayed\n([\s\S]*?)\n# /.exec(userText(req))?.[1] ?? '';
}

/** One agent fixture's task, its start page and the scripted model that solves it. */
export interface FixtureTask {
  id: 'webmail' | 'shop' | 'wizard' | 'lazy';
  path: string;
  task: string;
  /** The page must be opened with the bundle at document start (the task crosses full page loads). */
  early: boolean;
  /** Answers risky steps with yes. */
  confirm: boolean;
  /** Clears the site's state before a run. */
  reset(page: Page): Promise<void>;
  model(): Policy;
  /** The site's state shows the task done. */
  solved(page: Page): Promise<boolean>;
}

export const TASKS: FixtureTask[] = [
  {
    id: 'webmail',
    path: 'webmail/inbox.html',
    task: 'Find the emails Ernesto sent and open the one about the budget',
    early: true,
    confirm: true,
    reset: async () => {},
    model: () => (req) => {
      const map = latestMap(req);
      const url = mapUrl(map);
      if (url.includes('message.html')) return call('done', { summary: 'Opened the budget email from Ernesto.' });
      if (!url.includes('q=')) return call('type', { ref: refFor(map, 'searchbox', 'Search mail'), text: 'ernesto', submit: true }, 'goal: search for Ernesto');
      const link = mapElements(map).find((e) => e.role === 'link' && /^Ernesto Ruiz/.test(e.name) && /budget/i.test(e.name));
      if (!link) return call('wait', { text: 'Ernesto Ruiz' });
      return call('click', { ref: link.ref }, 'goal: open the budget email');
    },
    solved: async (page) => page.url().includes('message.html') && /budget/i.test(await page.title()),
  },
  {
    id: 'shop',
    path: 'shop/index.html',
    task: 'Buy the espresso grinder',
    early: true,
    confirm: true,
    reset: async (page) => {
      await page.evaluate(() => localStorage.clear());
      await page.reload();
    },
    model: () => shopModel,
    solved: async (page) => (await page.evaluate(() => JSON.parse(localStorage.getItem('shopOrders') ?? '[]').length)) === 1,
  },
  {
    id: 'wizard',
    path: 'wizard/step1.html',
    task: 'Sign me up: Ada Lovelace, ada@example.org, 12 St James Square, London, UK, Pro plan',
    early: true,
    confirm: true,
    reset: async () => {},
    model: wizardModel,
    solved: async (page) => page.url().includes('done.html') && /Ada Lovelace/.test((await page.textContent('#summary')) ?? ''),
  },
  {
    id: 'lazy',
    path: 'lazy/list.html',
    task: 'Open the Quantum widget',
    early: false,
    confirm: false,
    reset: async (page) => {
      await page.evaluate(() => localStorage.clear());
    },
    model: () => (req) => {
      const map = latestMap(req);
      if (hasText(map, 'You opened: Quantum widget')) return call('done', { summary: 'Opened the Quantum widget.' });
      if (hasText(map, 'Quantum widget')) return call('click', { ref: refNear(map, 'Quantum widget', 'button', 'Open') });
      return call('scroll', { direction: 'down', pages: 3 }, 'goal: load more items');
    },
    solved: async (page) => (await page.evaluate(() => localStorage.getItem('lazyOpened'))) === 'Quantum widget',
  },
];

export const task = (id: FixtureTask['id']): FixtureTask => TASKS.find((t) => t.id === id)!;

/**
 * A change a site might ship, scripted: a script that runs at document start on the fixture's
 * pages and changes their DOM as the site's next release would (the same URLs, so the
 * recording's pages are still its pages). `repair` is the model that redoes the broken step on
 * the changed page; none when no step should break.
 */
export interface UiChange {
  id: string;
  task: FixtureTask['id'];
  what: string;
  /** Runs in the page at document start (every page of the tab). */
  script: string;
  repair?: Policy;
}

/** The step the repair request says broke: its line in the recording block. */
export const brokenStep = (req: Parameters<Policy>[0]): string => /^.*BROKEN.*$/m.exec(recordingBlock(req))?.[0] ?? '';

/** `fn` runs once the page's own markup is there (at document start it is not yet). */
const onReady = (path: string, body: string): string =>
  `(() => { if (!location.pathname.endsWith(${JSON.stringify(path)})) return; const run = () => { ${body} }; if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', run, { once: true }); else run(); })();`;

export const CHANGES: UiChange[] = [
  {
    id: 'renamed-button',
    task: 'shop',
    what: '"Place order" renamed "Complete purchase"',
    script: onReady('/shop/checkout.html', "document.getElementById('place').textContent = 'Complete purchase';"),
    repair: (req) => {
      const map = latestMap(req);
      if (!/Place order/.test(brokenStep(req))) return call('fail', { reason: `unexpected repair: ${brokenStep(req)}` });
      return call('click', { ref: refFor(map, 'button', 'Complete purchase') }, 'goal: the order button is now called Complete purchase');
    },
  },
  {
    id: 'moved-field',
    task: 'wizard',
    what: 'Email moved above Full name, into a "Contact" group',
    script: onReady(
      '/wizard/step1.html',
      `
      const form = document.querySelector('form.step');
      const set = document.createElement('fieldset');
      const legend = document.createElement('legend');
      legend.textContent = 'Contact';
      set.append(legend, document.querySelector('label[for=email]'), document.getElementById('email'));
      form.prepend(set);`,
    ),
  },
  {
    id: 'extra-dialog',
    task: 'webmail',
    what: 'a "What’s new" dialog over the inbox on the first visit',
    script: onReady(
      '/webmail/inbox.html',
      `
      if (sessionStorage.getItem('wn-seen')) return;
      const d = document.createElement('div');
      d.id = 'whats-new';
      d.setAttribute('role', 'dialog');
      d.setAttribute('aria-modal', 'true');
      d.setAttribute('aria-labelledby', 'wn-title');
      d.style.cssText = 'position:fixed;inset:0;background:rgba(0,0,0,.4);display:flex;align-items:center;justify-content:center;z-index:10';
      d.innerHTML = '<div style="background:#fff;padding:24px;border-radius:8px"><h2 id="wn-title">What’s new</h2><p>Labels now sync across devices.</p><button type="button" id="wn-ok">Got it</button></div>';
      document.body.append(d);
      document.getElementById('wn-ok').addEventListener('click', () => { sessionStorage.setItem('wn-seen', '1'); d.remove(); });`,
    ),
    repair: (req) => {
      const map = latestMap(req);
      if (hasText(map, 'Got it')) return call('click', { ref: refFor(map, 'button', 'Got it') }, 'goal: close the dialog that covers the inbox');
      return call('fail', { reason: `unexpected repair: ${brokenStep(req)}` });
    },
  },
  {
    id: 'renamed-open',
    task: 'lazy',
    what: '"Open" buttons renamed "View"',
    script: onReady(
      '/lazy/list.html',
      `
      const rename = (root) => root.querySelectorAll('button').forEach((b) => { if (b.textContent === 'Open') b.textContent = 'View'; });
      rename(document);
      new MutationObserver(() => rename(document)).observe(document.body, { childList: true, subtree: true });`,
    ),
    repair: (req) => {
      const map = latestMap(req);
      if (!hasText(map, 'Quantum widget')) return call('fail', { reason: 'the item is not on the page' });
      return call('click', { ref: refNear(map, 'Quantum widget', 'button', 'View') }, 'goal: the Open button is now called View');
    },
  },
];

/**
 * Opens a fixture under tests/fixtures/agent/ as `openWithAgent` does, with `change` (when
 * given) applied on every page of the tab.
 */
export async function openFixture(session: Session, path: string, early: boolean, change?: UiChange): Promise<Page> {
  const page = await session.context.newPage();
  page.on('pageerror', (e) => console.error('[page error]', e.message));
  if (change) await page.addInitScript({ content: change.script });
  if (early) await page.addInitScript({ content: bundleSource() });
  await page.goto(`${origin()}/fixtures/agent/${path}`);
  if (!early) await page.addScriptTag({ content: bundleSource() });
  return page;
}

/** Starts `pagehand.replay` in the page with the run recorder attached (now and on later pages). */
export async function startReplay(page: Page, recording: Recording, options: Record<string, unknown>, confirm: 'allow' | 'deny' = 'deny'): Promise<void> {
  await page.context().addInitScript({ content: RECORDER });
  await page.evaluate(
    ({ recording, options, confirm, recorder }) => {
      sessionStorage.removeItem('agent-log');
      sessionStorage.removeItem('agent-result');
      sessionStorage.setItem('agent-confirm', confirm);
      (window as any).pagehand.replay(recording, { ui: false, ...options });
      (0, eval)(recorder);
    },
    { recording, options, confirm, recorder: RECORDER },
  );
}
