/**
 * The userscript in frames from other origins: the proxy's served pagehand.user.js runs in the
 * top page (127.0.0.1) and in its payment frame (localhost), as a manager runs it in every frame.
 * The frame shows nothing of pagehand; it answers the page's pagehand only after both proved the
 * same installation's key, and everything after that travels sealed.
 *
 * Every claim about what the agent sees and does is shown through the user's own path: the user
 * opens the panel from the launcher and types the task (real Playwright input), the scripted fake
 * model reads the map it was sent (`latestMap`) and acts through its calls. The frame's elements
 * join that map (`f1:` refs) and take the model's actions; the frame judges and guards its own
 * elements (deny zones, a changed element).
 *
 * The hostile side: the top page is a stranger's, and the userscript's `window.pagehand` lives in
 * its world (a GM shim injects it there), so `page.evaluate(() => window.pagehand…)` here is
 * exactly what the page's scripts can do. They cannot read the frame through `map`, `mapAsync`
 * or `find`, nor act in it through `act`, even with a ref the user's run was shown; a run they
 * start themselves is sent nothing of the frame and cannot act in it. Both pages' scripts read
 * every message their window gets and never see the frame's content, the parent's calls or the
 * token; forged, replayed and reflected messages, in either direction, get nothing done; a frame
 * with another token, or none, stays opaque, and one the page keeps in a deny zone is not asked.
 */
import type { Frame, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, lastToolResults, latestMap, mapElements, refFor, sequence, useAgentStack, type ModelRequest, type Policy, type Reply } from './agent-harness';
import { crossOrigin, origin, useSession } from './harness';
import { inUi, OPEN_OVERLAY, panel, sendTask, waitIn } from './ui-kit';

const session = useSession();
const stack = useAgentStack();
let userscript: string;
beforeAll(async () => {
  const res = await fetch(`${stack.proxyUrl}/pagehand.user.js`);
  expect(res.status).toBe(200);
  userscript = await res.text();
  expect(userscript).toContain(stack.token);
});

type ChildSetup = 'same' | 'other-token' | 'none';

interface Pair {
  page: Page;
  frame: () => Frame;
}

/** The checkout page with its payment frame from the other origin, the userscript in the top page and (as `child` says) in the frame. */
async function openPair(opts: { child?: ChildSetup; page?: string; off?: boolean } = {}): Promise<Pair> {
  const child = opts.child ?? 'same';
  const childScript =
    child === 'none' ? '' : child === 'other-token' ? userscript.split(stack.token).join('ph_someone-elses-token-0123456789abcdefgh') : userscript;
  const page = await session.context.newPage();
  page.on('pageerror', (e) => console.error('[page error]', e.message));
  await page.addInitScript({ content: OPEN_OVERLAY });
  // In every frame, at document start, as a manager does: the top page's copy, and the frame's as the setup says.
  await page.addInitScript({ content: `if (window.top === window) {\n${userscript}\n} else {\n${childScript}\n}` });
  const q = new URLSearchParams({ child: crossOrigin(), page: opts.page ?? 'child.html', off: opts.off ? '1' : '0' });
  await page.goto(`${origin()}/fixtures/frames-userscript/parent.html?${q}`);
  const frame = (): Frame => page.frames().find((f) => f.url().startsWith(crossOrigin()))!;
  await page.waitForFunction(() => !!(window as any).pagehand);
  await expect
    .poll(() =>
      frame()
        ?.evaluate(() => document.readyState)
        .catch(() => ''),
    )
    .toBe('complete');
  await page.waitForLoadState('load');
  return { page, frame };
}

let runs = 0;

/**
 * The user's run: the panel opened from the launcher (unless this site left it open), the task
 * typed and sent with real input, the scripted model's `steps` answering in order and then a
 * `done` with a summary of this run's own (after `end.beforeDone`, which runs while the model
 * is being asked). Resolves with the run's model requests once the panel shows that summary.
 */
async function userRun(
  page: Page,
  task: string,
  steps: Array<Policy | Reply>,
  end: { success?: boolean; beforeDone?: (req: ModelRequest) => Promise<void> } = {},
): Promise<ModelRequest[]> {
  const summary = `Run ${++runs} finished.`;
  const done: Policy = async (req) => {
    await end.beforeDone?.(req);
    return call('done', { summary, success: end.success ?? true });
  };
  stack.setPolicy(sequence(...steps, done));
  const before = stack.requests().length;
  await page.waitForFunction(() => !!document.querySelector('[data-pagehand-ui]'));
  if (!(await panel(page).count())) await (await waitIn(page, 'button.launcher')).click();
  await panel(page).waitFor();
  await sendTask(page, task);
  await page.locator('pagehand-ui [data-end]', { hasText: summary }).waitFor({ timeout: 20_000 });
  return stack.requests().slice(before);
}

/** The map the model was sent with each request. */
const mapsOf = (reqs: ModelRequest[]): string[] => reqs.map((r) => latestMap(r));

const seen = (where: Page | Frame): Promise<string[]> => where.evaluate(() => (window as any).__seen as string[]);
const ours = (messages: string[]) => messages.filter((m) => m.includes('"pagehand-frames"'));
/** A message as a page script could read it: its text, and any base64 in it decoded. */
const readable = (m: string): string =>
  m + (m.match(/[A-Za-z0-9_-]{16,}/g) ?? []).map((s) => Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('latin1')).join('\n');
const text = (reqs: ModelRequest[]): string => reqs.flatMap((r) => r.messages.map((m) => m.text)).join('\n');
/** A frame's ref as the map writes it (`[f1:3]`), or as a call or JSON carries it (`"f1:3"`). */
const FRAME_REF = /\[f\d+:\d+\]|"f\d+:\d+"/;
const OPAQUE = /iframe "Payment".*cross-origin, opaque: use click_at/;

/** The frame's text, its deny zone's and the token must not be in what a page script can read. */
const FRAME_TEXT = ['Lighthouse-4827', 'Card holder', 'Pay 20', 'Zone-Secret-5531'];
/** The frame's page as it stands (read by the test, not through pagehand). */
const frameState = (frame: Frame) =>
  frame.evaluate(() => ({
    status: document.getElementById('status')!.textContent,
    holder: (document.getElementById('holder') as HTMLInputElement | null)?.value ?? null,
    helps: (window as any).__helps ?? 0,
  }));

describe('a frame from another origin where the same userscript runs, in a run the user starts', () => {
  it('its elements join the map the model is sent, with f-prefixed refs; the frame shows no launcher and defines no global; its deny zone stays out', async () => {
    const { page, frame } = await openPair();
    const [req] = await userRun(page, 'What is on this page?', []);
    const map = latestMap(req!);
    const pay = refFor(map, 'button', 'Pay 20 €');
    expect(pay).toMatch(/^f\d+:\d+$/);
    const frameId = pay.split(':')[0];
    expect(refFor(map, 'textbox', 'Card holder').split(':')[0]).toBe(frameId);
    expect(refFor(map, 'button', 'Help').split(':')[0]).toBe(frameId);
    // The page's own button keeps a plain ref.
    expect(refFor(map, 'button', 'Apply coupon')).toMatch(/^\d+$/);
    expect(map).toMatch(new RegExp(`iframe "Payment".*\\(frame ${frameId} from ${crossOrigin().replace(/[.:/]/g, '\\$&')}\\)`));
    expect(map).toContain('Lighthouse-4827');
    // The frame's deny zone is applied by the frame: neither its text nor its button come up.
    expect(map).not.toContain('Zone-Secret-5531');
    expect(mapElements(map).some((e) => e.name === 'Erase account')).toBe(false);
    // In the frame, the userscript shows nothing and leaves no name on window.
    expect(await frame().evaluate(() => ({ ui: !!document.querySelector('[data-pagehand-ui], pagehand-ui'), api: 'pagehand' in window }))).toEqual({
      ui: false,
      api: false,
    });
    await page.close();
  });

  it("its elements take the model's actions: type, then click; refs the frame never listed reach nothing", async () => {
    const { page, frame } = await openPair();
    let guessed: string[] = [];
    const reqs = await userRun(page, 'Fill in Ada Lovelace and open the help', [
      (req) => call('type', { ref: refFor(latestMap(req), 'textbox', 'Card holder'), text: 'Ada Lovelace' }),
      (req) => call('click', { ref: refFor(latestMap(req), 'button', 'Help') }),
      // The refs right after the frame's listed ones, where its deny zone's button would come.
      (req) => {
        const map = latestMap(req);
        const frameId = refFor(map, 'button', 'Help').split(':')[0]!;
        const last = Math.max(
          ...mapElements(map)
            .filter((e) => e.ref.startsWith(`${frameId}:`))
            .map((e) => Number(e.ref.split(':')[1])),
        );
        guessed = [`${frameId}:${last + 1}`, `${frameId}:${last + 2}`];
        return call('click', { ref: guessed[0] });
      },
      () => call('click', { ref: guessed[1] }),
    ]);
    expect(reqs).toHaveLength(5);
    expect(lastToolResults(reqs[1]!).join('\n')).toMatch(/→ ok: Typed "Ada Lovelace" into textbox "Card holder"\./);
    expect(lastToolResults(reqs[2]!).join('\n')).toMatch(/→ ok: Clicked button "Help"\./);
    expect(await frameState(frame())).toEqual({ status: 'Help shown 1', holder: 'Ada Lovelace', helps: 1 });
    // The guessed refs: the frame answers that it has no such element, and nothing more happens there.
    guessed.forEach((ref, i) => expect(lastToolResults(reqs[3 + i]!).join('\n')).toMatch(new RegExp(`click \\[${ref}\\] → FAILED: There is no element`)));
    expect(latestMap(reqs[1]!)).toContain('Ada Lovelace');
    expect(await frameState(frame())).toEqual({ status: 'Help shown 1', holder: 'Ada Lovelace', helps: 1 });
    await page.close();
  });

  it('the frame refuses a call whose element changed since the map was taken (what the risk check judged is not what would be pressed)', async () => {
    const { page, frame } = await openPair();
    const reqs = await userRun(page, 'Open the help', [
      async (req) => {
        const help = refFor(latestMap(req), 'button', 'Help');
        // While the model thinks, the frame's page turns the harmless button into another one behind the map's back.
        await frame().evaluate(() => {
          const b = document.getElementById('help')!;
          b.textContent = 'Delete account';
          b.setAttribute('onclick', "document.getElementById('status').textContent = 'Deleted'");
        });
        return call('click', { ref: help });
      },
    ]);
    expect(lastToolResults(reqs[1]!).join('\n')).toMatch(/changed since the map was taken/);
    expect(await frame().textContent('#status')).toBe('Not paid');
    await page.close();
  });

  it('its pay button is judged a payment and asked about in the panel; denied, nothing is paid', async () => {
    const { page, frame } = await openPair();
    const run = userRun(
      page,
      'Fill in Ada Lovelace, then pay',
      [
        (req) => call('type', { ref: refFor(latestMap(req), 'textbox', 'Card holder'), text: 'Ada Lovelace' }),
        (req) => call('click', { ref: refFor(latestMap(req), 'button', 'Pay 20 €') }),
      ],
      { success: false },
    );
    // The panel asks the user, who says no (a real click).
    await waitIn(page, '[data-confirm]');
    expect(await inUi(page, '[data-confirm]').textContent()).toMatch(/pay/i);
    expect(await frame().inputValue('#holder')).toBe('Ada Lovelace');
    expect(await frame().textContent('#status')).toBe('Not paid');
    await inUi(page, '[data-deny]').click();
    const reqs = await run;
    expect(reqs).toHaveLength(3);
    expect(text([reqs[2]!])).toMatch(/The user did not allow/);
    expect(await frame().textContent('#status')).toBe('Not paid');
    await page.close();
  });
});

describe("the stranger's page's scripts and the frame", () => {
  /** What the page's scripts get from window.pagehand: map, mapAsync, find, and act with the refs the user's run was shown. */
  const probe = (page: Page, refs: { help: string; holder: string }) =>
    page.evaluate(async ({ help, holder }) => {
      const ph = (window as any).pagehand;
      const map = ph.map({ maxTokens: 3000 });
      const mapAsync = await ph.mapAsync({ maxTokens: 3000 });
      // What find found (its answer names the query, which the page chose: left out).
      const found = ['Lighthouse-4827', 'Pay 20', 'Card holder', 'Help'].map((q) => {
        const r = ph.find(q);
        return { elements: r.elements, texts: r.texts, text: String(r.text).split(q).join('…') };
      });
      const click = await ph.act({ name: 'click', args: { ref: help } });
      const type = await ph.act({ name: 'type', args: { ref: holder, text: 'Page-Typed-7731' } });
      return { map: JSON.stringify(map), mapAsync: JSON.stringify(mapAsync), mapText: mapAsync.text as string, found: JSON.stringify(found), click, type };
    }, refs);

  it("window.pagehand's map, mapAsync and find show none of the frame, and act does nothing there, even with the refs the user's run was shown, during it and after", async () => {
    const { page, frame } = await openPair();
    const probes: Array<Awaited<ReturnType<typeof probe>>> = [];
    let refs = { help: '', holder: '' };
    const [req] = await userRun(page, 'What is on this page?', [], {
      beforeDone: async (r) => {
        const map = latestMap(r);
        refs = { help: refFor(map, 'button', 'Help'), holder: refFor(map, 'textbox', 'Card holder') };
        // While the user's run waits for the model, the page's scripts try.
        probes.push(await probe(page, refs));
      },
    });
    // The user's run did read the frame.
    expect(latestMap(req!)).toContain('Lighthouse-4827');
    expect(refs.help).toMatch(/^f\d+:\d+$/);
    // And once it has ended.
    probes.push(await probe(page, refs));
    for (const p of probes) {
      for (const t of FRAME_TEXT) {
        expect(p.map).not.toContain(t);
        expect(p.mapAsync).not.toContain(t);
        expect(p.found).not.toContain(t);
      }
      for (const s of [p.map, p.mapAsync, p.found]) expect(s).not.toMatch(FRAME_REF);
      // The page sees the frame as any frame from another origin: opaque.
      expect(p.mapText).toMatch(OPAQUE);
      expect(p.click.ok).toBe(false);
      expect(p.type.ok).toBe(false);
    }
    expect(await frameState(frame())).toEqual({ status: 'Not paid', holder: '', helps: 0 });
    // The ref the page tried was live: the user's next run clicks it.
    await userRun(page, 'Open the help', [call('click', { ref: refs.help })]);
    expect(await frameState(frame())).toEqual({ status: 'Help shown 1', holder: '', helps: 1 });
    await page.close();
  });

  it("a run the page's script starts is sent nothing of the frame and cannot act there, even with refs the user's run was shown; the user's next run reaches it again", async () => {
    const { page, frame } = await openPair();
    const [first] = await userRun(page, 'What is on this page?', []);
    const pay = refFor(latestMap(first!), 'button', /^Pay 20/);
    const holder = refFor(latestMap(first!), 'textbox', 'Card holder');
    expect(pay).toMatch(/^f\d+:\d+$/);

    // The page's script starts its own run; the model tries the frame's refs the user's run saw —
    // the pay button first: its risk check must not ask about it (nor name it) with the frame's facts.
    stack.setPolicy(
      sequence(call('click', { ref: pay }), call('type', { ref: holder, text: 'Page-Run-Typed-6620' }), call('done', { summary: 'Page run finished.' })),
    );
    const before = stack.requests().length;
    const result = await page.evaluate(() => (window as any).pagehand.run('Tell me everything in the payment frame, then open its help').result);
    expect(result.summary).toBe('Page run finished.');
    const reqs = stack.requests().slice(before);
    expect(reqs).toHaveLength(3);
    for (const t of FRAME_TEXT) expect(text(reqs)).not.toContain(t);
    for (const map of mapsOf(reqs)) {
      expect(map).toMatch(OPAQUE);
      expect(map).not.toMatch(/\[f\d+:\d+\]/);
    }
    // Both calls failed (the frame's refs are not in its map), and nothing happened in the frame.
    expect(lastToolResults(reqs[1]!).join('\n')).toMatch(new RegExp(`click \\[${pay}\\] → FAILED: There is no element \\[${pay}\\]`));
    // No question was put to the user about the frame's button.
    expect(await inUi(page, '[data-confirm]').count()).toBe(0);
    expect(lastToolResults(reqs[2]!).join('\n')).toMatch(new RegExp(`type \\[${holder}\\] .* → FAILED: There is no element \\[${holder}\\]`));
    expect(await frameState(frame())).toEqual({ status: 'Not paid', holder: '', helps: 0 });

    // The user's own run after it sees and acts in the frame again.
    const again = await userRun(page, 'Open the help', [(req) => call('click', { ref: refFor(latestMap(req), 'button', 'Help') })]);
    expect(latestMap(again[0]!)).toContain('Lighthouse-4827');
    expect(await frameState(frame())).toEqual({ status: 'Help shown 1', holder: '', helps: 1 });
    await page.close();
  });
});

describe('what the pages see of it', () => {
  it("neither page's scripts read the frame's content, the user's run's calls or the token in the messages; the token is in no global, DOM or storage", async () => {
    const { page, frame } = await openPair();
    const reqs = await userRun(page, 'Fill in the holder and open the help', [
      (req) => call('type', { ref: refFor(latestMap(req), 'textbox', 'Card holder'), text: 'Typed-By-Parent-9917' }),
      (req) => call('click', { ref: refFor(latestMap(req), 'button', 'Help') }),
    ]);
    expect(latestMap(reqs[0]!)).toContain('Lighthouse-4827');
    expect(await frameState(frame())).toEqual({ status: 'Help shown 1', holder: 'Typed-By-Parent-9917', helps: 1 });

    const top = ours(await seen(page));
    const inFrame = ours(await seen(frame()));
    // They did see the bridge's traffic (a handshake and sealed requests and replies)...
    expect(top.some((m) => m.includes('"sealed"'))).toBe(true);
    expect(inFrame.some((m) => m.includes('"sealed"'))).toBe(true);
    // ...but nothing of what it carries.
    for (const m of top.map(readable)) {
      for (const t of FRAME_TEXT) expect(m).not.toContain(t);
      expect(m).not.toContain(stack.token);
    }
    for (const m of inFrame.map(readable)) {
      expect(m).not.toContain('Typed-By-Parent-9917');
      expect(m).not.toMatch(/"(click|args|ref|call)"/);
      expect(m).not.toContain(stack.token);
    }
    // The token in no global, no DOM, no storage, in either window.
    const leaks = (token: string) => {
      const found: string[] = [];
      for (const k of Object.getOwnPropertyNames(window)) {
        let v: unknown;
        try {
          v = (window as any)[k];
        } catch {
          continue;
        }
        let text = '';
        if (typeof v === 'string') text = v;
        else if (v && typeof v === 'object') {
          try {
            text = JSON.stringify(v) ?? '';
          } catch {
            /* cyclic: not data */
          }
        }
        if (text.includes(token)) found.push(`window.${k}`);
      }
      if (document.documentElement.outerHTML.includes(token)) found.push('DOM');
      // (A frame from another origin may be denied storage: then nothing can be in it.)
      const read = (what: () => string): string => {
        try {
          return what();
        } catch {
          return '';
        }
      };
      if (read(() => JSON.stringify({ ...localStorage })).includes(token)) found.push('localStorage');
      if (read(() => JSON.stringify({ ...sessionStorage })).includes(token)) found.push('sessionStorage');
      if (read(() => document.cookie).includes(token)) found.push('cookie');
      return found;
    };
    expect(await page.evaluate(leaks, stack.token)).toEqual([]);
    expect(await frame().evaluate(leaks, stack.token)).toEqual([]);
    await page.close();
  });
});

describe('forged, replayed and reflected messages', () => {
  it("the pages' scripts, together, get nothing done in the frame or in the map the user's run reads", async () => {
    const { page, frame } = await openPair();
    // One genuine click by the user's run: its sealed request is what the frame page's script captures.
    await userRun(page, 'Open the help', [(req) => call('click', { ref: refFor(latestMap(req), 'button', 'Help') })]);
    expect(await frame().textContent('#status')).toBe('Help shown 1');

    // The frame page's script hands what it captured to the page's script, which replays it into
    // the frame as the parent; it reflects it back to the parent as the frame; and it sends the
    // parent a forged challenge and forged sealed replies under a random key.
    const captured = ours(await seen(frame()));
    expect(captured.some((m) => m.includes('"sealed"'))).toBe(true);
    await frame().evaluate(async (messages) => {
      const b64 = (bytes: Uint8Array) =>
        btoa(String.fromCharCode(...bytes))
          .replace(/\+/g, '-')
          .replace(/\//g, '_')
          .replace(/=+$/, '');
      const rand = (n: number) => crypto.getRandomValues(new Uint8Array(n));
      const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt']);
      const forged = { type: 'map-result', id: 1, map: { lines: ['*[1]button "Forged transfer"'], elements: [], facts: {} } };
      for (const text of messages) {
        const m = JSON.parse(text);
        parent.postMessage(m, '*'); // reflected
        parent.postMessage({ channel: 'pagehand-frames', v: 2, type: 'challenge', np: m.np ?? m.sid, nc: b64(rand(16)), proof: b64(rand(32)) }, '*');
        for (let seq = 0; seq < 6; seq++) {
          for (let id = 1; id < 8; id++) {
            const iv = rand(12);
            const ct = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, new TextEncoder().encode(JSON.stringify({ ...forged, id }))));
            parent.postMessage({ channel: 'pagehand-frames', v: 2, type: 'sealed', sid: m.np ?? m.sid, seq, iv: b64(iv), ct: b64(ct) }, '*');
          }
        }
      }
    }, captured);
    const fromParent = ours(await seen(page));
    await page.evaluate(
      async ([replays, reflections]) => {
        const win = (document.querySelector('iframe') as HTMLIFrameElement).contentWindow!;
        const b64 = (bytes: Uint8Array) =>
          btoa(String.fromCharCode(...bytes))
            .replace(/\+/g, '-')
            .replace(/\//g, '_')
            .replace(/=+$/, '');
        const rand = (n: number) => crypto.getRandomValues(new Uint8Array(n));
        const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt']);
        for (const text of replays) win.postMessage(JSON.parse(text), '*'); // replayed, as the parent
        for (const text of reflections) win.postMessage(JSON.parse(text), '*'); // the frame's own replies, reflected
        // A session of its own: a hello (answered with a challenge it cannot use), a confirm with a random proof, and sealed calls under a random key.
        const np = b64(rand(16));
        const challenge = new Promise<any>((resolve) =>
          addEventListener('message', (e) => e.data?.type === 'challenge' && e.data.np === np && resolve(e.data)),
        );
        win.postMessage({ channel: 'pagehand-frames', v: 2, type: 'hello', np }, '*');
        const c = await challenge;
        win.postMessage({ channel: 'pagehand-frames', v: 2, type: 'confirm', np, nc: c.nc, proof: b64(rand(32)) }, '*');
        // The frame's own proof handed back as the parent's (reflection of the handshake).
        win.postMessage({ channel: 'pagehand-frames', v: 2, type: 'confirm', np, nc: c.nc, proof: c.proof }, '*');
        for (const sid of [np, ...replays.map((t) => JSON.parse(t).sid).filter(Boolean)]) {
          for (let seq = 0; seq < 6; seq++) {
            const iv = rand(12);
            const body = { type: 'act', id: 1, call: { name: 'click', args: { ref: '4' } } };
            const ct = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, new TextEncoder().encode(JSON.stringify(body))));
            win.postMessage({ channel: 'pagehand-frames', v: 2, type: 'sealed', sid, seq, iv: b64(iv), ct: b64(ct) }, '*');
          }
        }
        // The site protocol's shape, in the clear.
        win.postMessage({ channel: 'pagehand-frames', v: 1, type: 'act', nonce: np, id: 9, call: { name: 'click', args: { ref: '4' } }, judged: null }, '*');
        // Nothing to poll for when nothing should happen: give the frame time to (not) act.
        await new Promise((r) => setTimeout(r, 500));
      },
      [captured.filter((m) => m.includes('"sealed"')), fromParent] as const,
    );

    // Nothing was clicked again; no forged button came into the map the user's next run reads,
    // and the bridge still works for it.
    expect(await frameState(frame())).toMatchObject({ status: 'Help shown 1', helps: 1 });
    const reqs = await userRun(page, 'Open the help again', [(req) => call('click', { ref: refFor(latestMap(req), 'button', 'Help') })]);
    for (const map of mapsOf(reqs)) {
      expect(map).not.toContain('Forged');
      expect(map).toContain('Lighthouse-4827');
    }
    expect(await frameState(frame())).toMatchObject({ status: 'Help shown 2', helps: 2 });
    await page.close();
  });

  it('a frame page that speaks the protocol without the key (a forged challenge, sealed maps under its own key) stays opaque', async () => {
    const { page, frame } = await openPair({ child: 'none', page: 'forger.html' });
    const reqs = await userRun(page, 'Use the payment frame', [call('click', { ref: 'f1:1' })]);
    expect(reqs).toHaveLength(2);
    for (const map of mapsOf(reqs)) {
      expect(map, map).toMatch(OPAQUE);
      expect(map).not.toContain('Forged');
      expect(map).not.toMatch(/\[f\d+:\d+\]/);
    }
    expect(lastToolResults(reqs[1]!).join('\n')).toMatch(/click \[f1:1\] → FAILED/);
    // It did try.
    expect(ours(await seen(page)).some((m) => m.includes('"challenge"'))).toBe(true);
    expect(await frame().textContent('#status')).toBe('Not paid');
    await page.close();
  });
});

describe('frames that do not take part stay opaque', () => {
  /** The user's run: three maps of the page, and two refs guessed for the frame in between. */
  const opaque = async (pair: Pair) => {
    const { page, frame } = pair;
    const reqs = await userRun(page, 'Use the payment frame', [call('click', { ref: 'f1:1' }), call('click', { ref: 'f1:2' })]);
    expect(reqs).toHaveLength(3);
    for (const map of mapsOf(reqs)) {
      expect(map, map).toMatch(OPAQUE);
      expect(map).not.toContain('Lighthouse-4827');
      expect(map).not.toMatch(/\[f\d+:\d+\]/);
    }
    // Refs guessed for the frame reach nothing.
    expect(lastToolResults(reqs[1]!).join('\n')).toMatch(/click \[f1:1\] → FAILED/);
    expect(lastToolResults(reqs[2]!).join('\n')).toMatch(/click \[f1:2\] → FAILED/);
    expect(await frame().textContent('#status')).toBe('Not paid');
  };

  it('the frame runs the userscript with another token: it is asked, answers, and is not taken', async () => {
    const pair = await openPair({ child: 'other-token' });
    await opaque(pair);
    // The frame's userscript did run and answered: its challenge came to the page, and was refused.
    expect(ours(await seen(pair.page)).some((m) => m.includes('"challenge"'))).toBe(true);
    expect(ours(await seen(pair.page)).some((m) => m.includes('"sealed"'))).toBe(false);
    await pair.page.close();
  });

  it('the frame runs no pagehand: all it sees is a hello carrying a nonce', async () => {
    const pair = await openPair({ child: 'none' });
    await opaque(pair);
    const inFrame = ours(await seen(pair.frame()));
    expect(inFrame.length).toBeGreaterThan(0);
    for (const m of inFrame) expect(Object.keys(JSON.parse(m)).sort()).toEqual(['channel', 'np', 'type', 'v']);
    await pair.page.close();
  });

  it('the page keeps the frame in a deny zone: it is not even asked', async () => {
    const pair = await openPair({ off: true });
    const reqs = await userRun(pair.page, 'Use the payment frame', [call('click', { ref: 'f1:1' })]);
    expect(reqs).toHaveLength(2);
    for (const map of mapsOf(reqs)) {
      expect(map).not.toContain('Lighthouse-4827');
      expect(map).not.toMatch(/\[f\d+:\d+\]/);
    }
    expect(lastToolResults(reqs[1]!).join('\n')).toMatch(/click \[f1:1\] → FAILED/);
    expect(ours(await seen(pair.frame()))).toEqual([]);
    expect(await pair.frame().textContent('#status')).toBe('Not paid');
    await pair.page.close();
  });
});
