/**
 * Helpers for the action tests: refs come from `pagehand.map()` (found by role + name, as a
 * model would read them), and actions run through `pagehand.act` inside the page.
 */
import type { Page } from 'playwright-core';
import type { ActionResult, ActOptions } from '../../client/page/actions/contract';

export interface MapEntry {
  ref: string;
  role: string;
  name: string;
  tag: string;
}

export async function mapElements(page: Page, options: Record<string, unknown> = { maxTokens: 50_000, nearScreens: 50 }): Promise<MapEntry[]> {
  return page.evaluate((o) => (window as any).pagehand.map(o).elements.map((e: MapEntry) => ({ ref: e.ref, role: e.role, name: e.name, tag: e.tag })), options);
}

/** The ref of the mapped element with this role and name (exact string or pattern). */
export async function refOf(page: Page, role: string, name: string | RegExp): Promise<string> {
  const all = await mapElements(page);
  const hits = all.filter((e) => e.role === role && (typeof name === 'string' ? e.name === name : name.test(e.name)));
  if (hits.length !== 1) {
    const listing = all.map((e) => `[${e.ref}] ${e.role} "${e.name}"`).join('\n');
    throw new Error(`${hits.length} mapped elements with role ${role} and name ${String(name)}; the map has:\n${listing}`);
  }
  return hits[0]!.ref;
}

/**
 * The ref of the mapped element that sits where `selector`'s element is — for elements the map
 * lists without a name (a clickable list item), as a model would pick them by position.
 */
export async function refAt(page: Page, selector: string): Promise<string> {
  const box = await page.locator(selector).boundingBox();
  if (!box) throw new Error(`${selector} has no box`);
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  const els: Array<{ ref: string; rect: { x: number; y: number; width: number; height: number } }> = await page.evaluate(() =>
    (window as any).pagehand.map({ maxTokens: 50_000, nearScreens: 50 }).elements.map((e: any) => ({ ref: e.ref, rect: e.rect })),
  );
  const hits = els
    .filter((e) => cx >= e.rect.x && cx <= e.rect.x + e.rect.width && cy >= e.rect.y && cy <= e.rect.y + e.rect.height)
    .sort((a, b) => a.rect.width * a.rect.height - b.rect.width * b.rect.height);
  if (!hits.length) throw new Error(`no mapped element at ${selector}`);
  return hits[0]!.ref;
}

export async function act(page: Page, name: string, args: Record<string, unknown> = {}, options?: ActOptions): Promise<ActionResult> {
  return page.evaluate(([n, a, o]) => (window as any).pagehand.act({ name: n, args: a }, o), [name, args, options] as const);
}

/** JSON mirrored into #state by the framework fixtures. */
export async function appState(page: Page): Promise<Record<string, unknown>> {
  return JSON.parse((await page.textContent('#state')) ?? '{}');
}
