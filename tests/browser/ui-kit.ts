/**
 * Helpers for the overlay's browser tests: open the panel against the agent stack, reach into
 * its shadow root, save a PNG of the viewport as a test artifact (.tmp/ui-shots/, gitignored)
 * and check it, and run axe-core on the panel.
 *
 * The overlay's shadow root is closed, which Playwright's locators do not enter. Contexts made
 * with `useUiSession` (or passed to `revealOverlay`) open it, for tests only: an init script,
 * run before the bundle, turns the overlay host's `mode: 'closed'` into `'open'`. Tests of the
 * closed root itself use a context without it (ui-trust.test.ts).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { beforeAll, expect } from 'vitest';
import type { AgentStack } from './agent-harness';
import { MODELS } from './agent-harness';
import { bookmarklet } from '../../server/node/loader';
import { useSession, type Session } from './harness';
import { decodePng, type Png } from './png';

export const SHOTS = fileURLToPath(new URL('../../.tmp/ui-shots/', import.meta.url));
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Test-only: the overlay host's shadow root attached open, so locators and `.shadowRoot` reach it. */
export const OPEN_OVERLAY = `(() => {
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) {
    return attach.call(this, this.localName === 'pagehand-ui' ? { ...init, mode: 'open' } : init);
  };
})();`;

/** Opens the overlay's shadow root in every page of this context from now on (before the bundle loads). */
export async function revealOverlay(context: BrowserContext): Promise<void> {
  await context.addInitScript({ content: OPEN_OVERLAY });
}

/** `useSession()` whose context opens the overlay's shadow root to the tests. */
export function useUiSession(viewport?: { width: number; height: number }): Session {
  const session = useSession(viewport);
  beforeAll(async () => {
    await revealOverlay(session.context);
  });
  return session;
}

/** Playwright's CSS engine pierces open shadow roots, so these reach inside the host (see revealOverlay). */
/** What the browser runs when the user clicks the bookmark on `page` (its loader tag marks a stranger's page). */
export const runBookmarklet = (page: Page, stack: Pick<AgentStack, 'proxyUrl'>): Promise<unknown> =>
  page.evaluate(decodeURI(bookmarklet(stack.proxyUrl).slice('javascript:'.length)));

/**
 * The user in the broker window the bookmarklet opened: presses Allow when it asks (it asks
 * nothing for an origin it gave a session to before, and closes at once), then it closes.
 */
export async function allowInBroker(popup: Page): Promise<void> {
  const closed = popup.waitForEvent('close');
  await Promise.race([
    closed,
    popup
      .locator('#allow:enabled')
      .click()
      .catch(() => {}),
  ]);
  await closed;
}

/** A click on the bookmarklet and the user's Allow in the window it opens. */
export async function clickBookmarklet(page: Page, stack: Pick<AgentStack, 'proxyUrl'>): Promise<void> {
  const popup = page.waitForEvent('popup');
  await runBookmarklet(page, stack);
  await allowInBroker(await popup);
}

/**
 * Waits for the bookmarklet's engine. Its panel comes first, and until the engine is there the
 * page's `pagehand` is a stand-in whose `run` is a promise and whose `init` and `map` throw
 * (client/entries/bookmarklet-stub.ts): tests that call the full API wait for it.
 */
export async function bookmarkletReady(page: Page): Promise<void> {
  // The first file defines the stand-in when it runs, a moment after the click's script tag.
  await page.waitForFunction(() => !!(window as any).pagehand);
  await page.evaluate(async () => {
    await (window as any).pagehand.ready;
  });
}

export const panel = (page: Page): Locator => page.locator('pagehand-ui section.panel');
export const inUi = (page: Page, sel: string): Locator => page.locator(`pagehand-ui ${sel}`);

/**
 * The user's click on Allow (or another of the card's buttons), once the confirmation card has
 * armed (it takes no click before: client/ui/arming.ts). The pointer goes where the button is,
 * as a person's does: Playwright's own click may scroll the panel to bring the button in view
 * first, and a card that moves disarms (under load it retried with a scroll that did, and the
 * click was rightly ignored).
 */
export async function clickAllow(page: Page, button = '[data-allow]', timeout = 30_000): Promise<void> {
  await waitIn(page, '[data-confirm][data-armed]', timeout);
  const box = await inUi(page, `[data-confirm] ${button}`).boundingBox();
  if (!box) throw new Error(`the confirmation card has no ${button} on screen`);
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

/** `pagehand.open()` with the stack's proxy, as a bookmarklet configured for it would. */
export async function openPanel(page: Page, stack: AgentStack, extra: Record<string, unknown> = {}): Promise<void> {
  // Each test starts from the default place (tests on one origin share localStorage).
  await page.evaluate(() => localStorage.removeItem('pagehand:ui'));
  await page.evaluate((o) => (window as any).pagehand.open(o), { proxy: stack.proxyUrl, token: stack.token, model: MODELS.openai, ...extra });
  await panel(page).waitFor();
}

/** Types a task into the panel and presses Enter, as a person would. */
export async function sendTask(page: Page, task: string): Promise<void> {
  await inUi(page, '[data-task]').click();
  await page.keyboard.type(task);
  await page.keyboard.press('Enter');
}

export const pixel = (png: Png, x: number, y: number): [number, number, number] => {
  const o = (Math.round(y) * png.width + Math.round(x)) * 4;
  return [png.rgba[o]!, png.rgba[o + 1]!, png.rgba[o + 2]!];
};

/** How many different colours a box holds (a blank box has one or two). */
export function colours(png: Png, box: { x: number; y: number; width: number; height: number }): number {
  const seen = new Set<number>();
  for (let y = Math.max(0, Math.floor(box.y)); y < Math.min(png.height, box.y + box.height); y += 1) {
    for (let x = Math.max(0, Math.floor(box.x)); x < Math.min(png.width, box.x + box.width); x += 1) {
      const [r, g, b] = pixel(png, x, y);
      seen.add((r << 16) | (g << 8) | b);
    }
  }
  return seen.size;
}

export interface Shot {
  png: Png;
  file: string;
  /** The box of the element checked (panel or launcher), in viewport pixels. */
  box: { x: number; y: number; width: number; height: number };
}

/**
 * Saves the viewport as .tmp/ui-shots/NAME.png and checks it: a real image of the viewport's
 * size, the given part of the overlay inside the viewport, and drawn (not a blank box: its
 * pixels hold text, so many colours) with the theme's background at its top-left inside.
 */
export async function shot(page: Page, name: string, opts: { of?: Locator; background?: [number, number, number] } = {}): Promise<Shot> {
  mkdirSync(SHOTS, { recursive: true });
  const file = `${SHOTS}${name}.png`;
  const buf = await page.screenshot({ path: undefined, animations: 'disabled' });
  writeFileSync(file, buf);
  expect(buf.length, `${name}.png size`).toBeGreaterThan(5000);
  const png = decodePng(buf);
  const vp = page.viewportSize()!;
  expect([png.width, png.height]).toEqual([vp.width, vp.height]);
  const box = (await (opts.of ?? panel(page)).boundingBox())!;
  expect(box, `${name}: the overlay is on screen`).not.toBeNull();
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(vp.width + 0.5);
  expect(box.y + box.height).toBeLessThanOrEqual(vp.height + 0.5);
  expect(colours(png, box), `${name}: the overlay's pixels are not blank`).toBeGreaterThan(30);
  if (opts.background) {
    // Just inside the left edge, in the left padding: the colour most of that column shows
    // (a single point can land on a separator line wherever the panel's rows happen to fall).
    const column = Array.from({ length: 21 }, (_, i) => pixel(png, box.x + 3, box.y + box.height * (0.15 + i * 0.035)).join(','));
    const counts = new Map<string, number>();
    for (const c of column) counts.set(c, (counts.get(c) ?? 0) + 1);
    const [r, g, b] = [...counts]
      .sort((a, b) => b[1] - a[1])[0]![0]
      .split(',')
      .map(Number) as [number, number, number];
    const [er, eg, eb] = opts.background;
    expect(Math.abs(r - er) + Math.abs(g - eg) + Math.abs(b - eb), `${name}: background ${[r, g, b]} vs ${opts.background}`).toBeLessThan(12);
  }
  return { png, file, box };
}

export const LIGHT_BG: [number, number, number] = [255, 255, 255];
export const DARK_BG: [number, number, number] = [0x1c, 0x1f, 0x26];

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown; failureSummary?: string }>;
}

/** axe-core inside the page, on the overlay's host (axe follows open shadow roots): serious and critical violations. */
export async function axeSerious(page: Page, name?: string): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource });
  const { violations, buttons } = await page.evaluate(async () => {
    const axe = (window as any).axe;
    const r = await axe.run({ include: [['pagehand-ui']] });
    return {
      violations: r.violations.map((v: any) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.map((n: any) => ({ target: n.target, failureSummary: n.failureSummary })),
      })) as AxeViolation[],
      buttons: (r.passes.find((p: any) => p.id === 'button-name')?.nodes.length ?? 0) as number,
    };
  });
  // Proof that axe looked inside the shadow root: it checked our buttons' names.
  expect(buttons, "axe examined the overlay's buttons").toBeGreaterThan(0);
  // Every violation (minor and moderate too) is kept beside the screenshot for reading.
  if (name) writeFileSync(`${SHOTS}${name}.axe.json`, JSON.stringify(violations, null, 1));
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Checks a state: its screenshot and axe. */
export async function checkState(page: Page, name: string, opts: Parameters<typeof shot>[2] = {}): Promise<Shot> {
  const s = await shot(page, name, opts);
  const bad = await axeSerious(page, name);
  expect(bad, `${name}: axe\n${JSON.stringify(bad, null, 1)}`).toEqual([]);
  return s;
}

/** Waits for an overlay element; on timeout the error carries the panel's text and a PNG of the page. */
export async function waitIn(page: Page, sel: string, timeout = 15_000): Promise<Locator> {
  const loc = inUi(page, sel);
  try {
    await loc.first().waitFor({ timeout });
  } catch (e) {
    mkdirSync(SHOTS, { recursive: true });
    const file = `${SHOTS}failed-wait.png`;
    await page.screenshot({ path: file }).catch(() => {});
    const text = await page.evaluate(() => document.querySelector('pagehand-ui')?.shadowRoot?.textContent ?? '(no overlay)').catch(() => '?');
    throw new Error(`${String(e)}\nurl: ${page.url()}\noverlay: ${text}\nscreenshot: ${file}`, { cause: e });
  }
  return loc;
}
