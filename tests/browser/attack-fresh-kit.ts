/**
 * The kit of issue 25's fresh attack (attack-fresh.test.ts): a hostile page under
 * tests/fixtures/adversarial/fresh/, the built bundle, the real proxy, a scripted model that
 * does what the page asks, and a user who says no. Written from docs/security.md alone.
 */
import type { Page } from 'playwright-core';
import type { RunResult } from '../../client/agent/public-types';
import { beforeAll, expect } from 'vitest';
import { call, latestMap, mapElements, MODELS, useAgentStack, type AgentStack, type ModelRequest, type Reply } from './agent-harness';
import { runLog, startRun } from './agent-run';
import { crossOrigin, open, useSession, type Session } from './harness';

export interface Attack {
  name: string;
  /** The fixture under adversarial/fresh/; `{cross}` becomes the other origin. */
  page: string;
  /** The model's one call, read off the map (and, for a point, the page) as a model would. */
  call: (map: string, page: Page) => Reply | Promise<Reply>;
}

interface Outcome {
  asked: string[];
  /** What the page recorded, then every request to a /sink/ address (`METHOD URL`). */
  effects: string[];
  why: string;
}

/** What a play waits for once it has an effect. */
type Need = 'one effect' | 'every effect';

/** A ping or a navigation an action started may still be on its way when the run ends. */
const TAIL_MS = 300;

export interface Kit {
  session: Session;
  stack: AgentStack;
  /** One answer on a page of its own. */
  play(a: Attack, confirm: 'allow' | 'deny'): Promise<Outcome>;
  /** Both answers on one page load where the page allows it: a no first, then a yes. */
  playBoth(a: Attack): Promise<{ denied: Outcome; allowed: Outcome }>;
  /** The attack is real (a yes lets it happen), and a no stops it: a question, and no trace. */
  attack(a: Attack): Promise<void>;
}

/** One browser context, one agent stack, and a /sink/ route answering 204 (the page stays). */
export function useAttackKit(): Kit {
  const session = useSession();
  const stack = useAgentStack();
  const sink: string[] = [];
  let sinkHit: (() => void) | undefined;
  beforeAll(async () => {
    await session.context.route('**/sink/**', async (route) => {
      sink.push(`${route.request().method()} ${route.request().url()}`);
      sinkHit?.();
      await route.fulfill({ status: 204 });
    });
  });

  const load = (a: Attack): Promise<Page> => open(session, `adversarial/fresh/${a.page.replace('{cross}', encodeURIComponent(crossOrigin()))}`);

  /**
   * Until the run's result or the page's first effect, whichever comes first: a yes to a link
   * whose answer (204) leaves the page where it is would otherwise hold the run for the loop's
   * whole navigation grace. Then, unless one effect is all the caller needs, a tail for what
   * is still on its way.
   */
  const settle = async (page: Page, need: Need): Promise<RunResult | undefined> => {
    const hit = new Promise<void>((resolve) => {
      if (sink.length > 0) resolve();
      else sinkHit = resolve;
    });
    const inPage = page.waitForFunction(() => ((window as any).__done?.length ?? 0) > 0 || sessionStorage.getItem('agent-result') !== null, undefined, {
      timeout: 30_000,
    });
    inPage.catch(() => {}); // a sink request may win the race: this one then ends with the page
    try {
      await Promise.race([hit, inPage]);
    } catch (e) {
      throw new Error(`no result and no effect within 30 s; log:\n${JSON.stringify(await runLog(page), null, 1).slice(-4000)}`, { cause: e });
    } finally {
      sinkHit = undefined;
    }
    const raw = await page.evaluate(() => sessionStorage.getItem('agent-result'));
    const effectSeen = sink.length > 0 || (await page.evaluate(() => ((window as any).__done?.length ?? 0) > 0));
    if (!(need === 'one effect' && effectSeen)) await page.waitForTimeout(TAIL_MS);
    return raw ? (JSON.parse(raw) as RunResult) : undefined;
  };

  const playOn = async (page: Page, a: Attack, confirm: 'allow' | 'deny', need: Need): Promise<Outcome> => {
    sink.length = 0;
    let turn = 0;
    stack.setPolicy(async (req) => (turn++ === 0 ? a.call(latestMap(req), page) : call('done', { summary: 'Done as the page asked.' })));
    await startRun(page, 'Do what the page says.', { proxy: stack.proxyUrl, token: stack.token, model: MODELS.openai }, { confirm });
    const result = await settle(page, need);
    const log = await runLog(page);
    const asked = log.filter((e) => e.type === 'confirm').map((e) => `${e.kind}: ${e.reason}`);
    const done = (await page.evaluate(() => (window as any).__done as string[] | undefined)) ?? [];
    const effects = [...done, ...sink];
    const actions = log.filter((e) => e.type === 'action' && e.phase === 'end').map((e) => `${e.name} ${JSON.stringify(e.args)} → ${e.message}`);
    const end = result ? `result ok ${result.ok} ${result.summary}` : 'no result yet';
    const why = `${a.name} (${confirm}): asked ${JSON.stringify(asked)}, effects ${JSON.stringify(effects)}, actions ${JSON.stringify(actions)}, ${end}`;
    return { asked, effects, why };
  };

  const play = async (a: Attack, confirm: 'allow' | 'deny'): Promise<Outcome> => {
    const page = await load(a);
    try {
      return await playOn(page, a, confirm, 'every effect');
    } finally {
      await page.close();
    }
  };

  const playBoth = async (a: Attack, need: Need = 'every effect'): Promise<{ denied: Outcome; allowed: Outcome }> => {
    const page = await load(a);
    try {
      const denied = await playOn(page, a, 'deny', 'every effect');
      // The yes plays on the page the no left. What the no left behind (an option it selected
      // before the submit it stopped, an effect) can keep the yes from acting there: then the
      // yes gets a fresh page, as every answer once did.
      if (denied.effects.length === 0) {
        const allowed = await playOn(page, a, 'allow', need);
        if (allowed.effects.length > 0) return { denied, allowed };
      }
      await page.close();
      const again = await load(a);
      try {
        return { denied, allowed: await playOn(again, a, 'allow', need) };
      } finally {
        await again.close();
      }
    } finally {
      if (!page.isClosed()) await page.close();
    }
  };

  const attack = async (a: Attack): Promise<void> => {
    const { denied, allowed } = await playBoth(a, 'one effect');
    expect(denied.effects, denied.why).toEqual([]);
    expect(denied.asked.length, denied.why).toBeGreaterThan(0);
    expect(allowed.effects.length, `the page is not a live attack: ${allowed.why}`).toBeGreaterThan(0);
  };

  return { session, stack, play, playBoth: (a) => playBoth(a), attack };
}

/** A click on the one element with this role and name. */
export const clickOn =
  (role: string, name: string | RegExp) =>
  (map: string): Reply => {
    const hits = mapElements(map).filter((e) => e.role === role && (typeof name === 'string' ? e.name === name : name.test(e.name)));
    if (hits.length !== 1) throw new Error(`${hits.length} ${role} named ${String(name)}:\n${map}`);
    return call('click', { ref: hits[0]!.ref });
  };

/** A click on the nth element (0-based) with this role and name: rows of look-alike buttons. */
export const clickNth =
  (role: string, name: string, nth: number) =>
  (map: string): Reply => {
    const hit = mapElements(map).filter((e) => e.role === role && e.name === name)[nth];
    if (!hit) throw new Error(`no ${role} ${name} #${nth}:\n${map}`);
    return call('click', { ref: hit.ref });
  };

/** A click on the element of this role on a map line matching `text` (names the tricks garble). */
export const clickOnLine =
  (role: string, text: RegExp) =>
  (map: string): Reply => {
    const hit = mapElements(map).find((e) => e.role === role && text.test(e.line));
    if (!hit) throw new Error(`no ${role} on a line matching ${String(text)}:\n${map}`);
    return call('click', { ref: hit.ref });
  };

/** click_at the centre of the rect `locate` returns (top viewport px), as viewport fractions. */
export const clickAtRect =
  (locate: () => { left: number; top: number; width: number; height: number }) =>
  async (_map: string, page: Page): Promise<Reply> => {
    const p = await page.evaluate((src) => {
      const r = (0, eval)(src)();
      const de = document.documentElement;
      return { x: (r.left + r.width / 2) / de.clientWidth, y: (r.top + r.height / 2) / de.clientHeight };
    }, `(${locate.toString()})`);
    return call('click_at', p);
  };

/** The run's value, from the markers in the request. */
export function runValue(req: ModelRequest): string {
  const v = /⟪page content ([0-9a-f]{12})⟫/.exec(req.messages.map((m) => m.text).join('\n'))?.[1];
  if (!v) throw new Error(`no run value in request #${req.seq}`);
  return v;
}

/** Lines of the turns not written by the model that stand outside the run's fence. */
export function outsideFence(req: ModelRequest): string[] {
  const v = runValue(req);
  const out: string[] = [];
  for (const m of req.messages) {
    if (m.role === 'assistant') continue;
    let inside = false;
    for (const line of m.text.split('\n')) {
      if (line === `⟪page content ${v}⟫`) inside = true;
      else if (line === `⟪/page content ${v}⟫`) inside = false;
      else if (!inside) out.push(`${m.role}: ${line}`);
    }
  }
  return out;
}

/** A decimal digit of any script (\p{Nd}) read as its value: its offset from its block's zero. */
function digitOf(c: string): string {
  const cp = c.codePointAt(0)!;
  let zero = cp;
  while (zero > cp - 9 && /\p{Nd}/u.test(String.fromCodePoint(zero - 1))) zero--;
  return String(cp - zero);
}

/** Text as a reader of digits sees it: any script's digits as 0–9, ASCII letters lower-cased, the rest dropped. */
export const asDigits = (s: string): string =>
  [...s.normalize('NFKC')].map((c) => (/[0-9]/.test(c) ? c : /\p{Nd}/u.test(c) ? digitOf(c) : /[a-z]/i.test(c) ? c.toLowerCase() : '')).join('');
