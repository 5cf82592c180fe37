/**
 * The userscript in frames from other origins: the proxy's served pagehand.user.js runs in the
 * top page (127.0.0.1) and in its payment frame (localhost), as a manager runs it in every frame.
 * The frame shows nothing of pagehand; it answers the page's pagehand only after both proved the
 * same installation's key, and everything after that travels sealed. The frame's elements join
 * the page's map (`f1:` refs) and take actions through `pagehand.act` and through a run with the
 * fake model; the frame judges and guards its own elements (deny zones, a changed element).
 *
 * The hostile side: both pages' scripts read every message their window gets and never see the
 * frame's content, the parent's calls or the token; forged, replayed and reflected messages, in
 * either direction, get nothing done; a frame with another token, or none, stays opaque.
 */
import type { Frame, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, latestMap, refFor, sequence, useAgentStack } from './agent-harness';
import { crossOrigin, origin, useSession } from './harness';
import { inUi, OPEN_OVERLAY } from './ui-kit';

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
  const childScript = child === 'none' ? '' : child === 'other-token' ? userscript.split(stack.token).join('ph_someone-elses-token-0123456789abcdefgh') : userscript;
  const page = await session.context.newPage();
  page.on('pageerror', (e) => console.error('[page error]', e.message));
  await page.addInitScript({ content: OPEN_OVERLAY });
  // In every frame, at document start, as a manager does: the top page's copy, and the frame's as the setup says.
  await page.addInitScript({ content: `if (window.top === window) {\n${userscript}\n} else {\n${childScript}\n}` });
  const q = new URLSearchParams({ child: crossOrigin(), page: opts.page ?? 'child.html', off: opts.off ? '1' : '0' });
  await page.goto(`${origin()}/fixtures/frames-userscript/parent.html?${q}`);
  const frame = (): Frame => page.frames().find((f) => f.url().startsWith(crossOrigin()))!;
  await page.waitForFunction(() => !!(window as any).pagehand);
  await expect.poll(() => frame()?.evaluate(() => document.readyState).catch(() => '')).toBe('complete');
  await page.waitForLoadState('load');
  return { page, frame };
}

type Map = { text: string; elements: Array<{ ref: string; role: string; name: string; frame?: string; rect: { x: number; y: number } }> };
const mapAsync = (page: Page): Promise<Map> => page.evaluate(() => (window as any).pagehand.mapAsync({ maxTokens: 3000 }));
const act = (page: Page, name: string, args: Record<string, unknown>): Promise<{ ok: boolean; message: string }> =>
  page.evaluate(([n, a]) => (window as any).pagehand.act({ name: n, args: a }), [name, args] as const);
const seen = (where: Page | Frame): Promise<string[]> => where.evaluate(() => (window as any).__seen as string[]);
const ours = (messages: string[]) => messages.filter((m) => m.includes('"pagehand-frames"'));
/** A message as a page script could read it: its text, and any base64 in it decoded. */
const readable = (m: string): string =>
  m + (m.match(/[A-Za-z0-9_-]{16,}/g) ?? []).map((s) => Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('latin1')).join('\n');

/** The frame's text, its deny zone's and the token must not be in what a page script can read. */
const FRAME_TEXT = ['Lighthouse-4827', 'Card holder', 'Pay 20', 'Zone-Secret-5531'];

describe('a frame from another origin where the same userscript runs', () => {
  it("its map joins the page's with f-prefixed refs; the frame shows no launcher and defines no global; its deny zone stays out", async () => {
    const { page, frame } = await openPair();
    const map = await mapAsync(page);
    const pay = map.elements.find((e) => e.name === 'Pay 20 €');
    expect(pay, map.text).toBeDefined();
    expect(pay!.ref).toMatch(/^f\d+:\d+$/);
    expect(pay!.frame).toBe(pay!.ref.split(':')[0]);
    expect(map.text).toMatch(new RegExp(`iframe "Payment".*\\(frame ${pay!.frame} from ${crossOrigin().replace(/[.:/]/g, '\\$&')}\\)`));
    expect(map.text).toContain('Lighthouse-4827');
    // The frame's deny zone is applied by the frame: neither its text nor its button come up.
    expect(map.text).not.toContain('Zone-Secret-5531');
    expect(map.elements.some((e) => e.name === 'Erase account')).toBe(false);
    // The frame's box is offset by where the frame sits in the page.
    const box = (await page.locator('iframe').boundingBox())!;
    expect(pay!.rect.y).toBeGreaterThan(box.y);
    // In the frame, the userscript shows nothing and leaves no name on window.
    expect(await frame().evaluate(() => ({ ui: !!document.querySelector('[data-pagehand-ui], pagehand-ui'), api: 'pagehand' in window }))).toEqual({ ui: false, api: false });
    // The top page has its launcher.
    await page.waitForFunction(() => !!document.querySelector('[data-pagehand-ui]'));
    await page.close();
  });

  it('its elements take actions through pagehand.act: type, then click; an element the frame keeps out is not reached', async () => {
    const { page, frame } = await openPair();
    const map = await mapAsync(page);
    const holder = map.elements.find((e) => e.name === 'Card holder')!.ref;
    const help = map.elements.find((e) => e.name === 'Help')!.ref;
    let r = await act(page, 'type', { ref: holder, text: 'Ada Lovelace' });
    expect(r.ok, r.message).toBe(true);
    expect(await frame().inputValue('#holder')).toBe('Ada Lovelace');
    r = await act(page, 'click', { ref: help });
    expect(r.ok, r.message).toBe(true);
    expect(r.message).toMatch(/^Clicked button "Help"\./);
    expect(await frame().textContent('#status')).toBe('Help shown 1');
    // Refs the frame never listed (its deny zone's button comes after the listed ones): nothing happens.
    const frameId = help.split(':')[0];
    for (let n = 1; n <= 12; n++) {
      const ref = `${frameId}:${n}`;
      if (map.elements.some((e) => e.ref === ref)) continue;
      r = await act(page, 'click', { ref });
      expect(r.ok).toBe(false);
    }
    expect(await frame().textContent('#status')).toBe('Help shown 1');
    await page.close();
  });

  it('the frame refuses a call whose element changed since the map was taken (what the risk check judged is not what would be pressed)', async () => {
    const { page, frame } = await openPair();
    const map = await mapAsync(page);
    const help = map.elements.find((e) => e.name === 'Help')!.ref;
    // The frame's page turns the harmless button into another one behind the map's back.
    await frame().evaluate(() => {
      const b = document.getElementById('help')!;
      b.textContent = 'Delete account';
      b.setAttribute('onclick', "document.getElementById('status').textContent = 'Deleted'");
    });
    const r = await act(page, 'click', { ref: help });
    expect(r.ok).toBe(false);
    expect(r.message).toMatch(/changed since the map was taken/);
    expect(await frame().textContent('#status')).toBe('Not paid');
    await page.close();
  });

  it('through a run with the fake model: it types and clicks in the frame; its pay button is judged a payment and asked about in the panel; denied, nothing is paid', { timeout: 90_000 }, async () => {
    const { page, frame } = await openPair();
    stack.setPolicy(
      sequence(
        (req) => call('type', { ref: refFor(latestMap(req), 'textbox', 'Card holder'), text: 'Ada Lovelace' }),
        (req) => call('click', { ref: refFor(latestMap(req), 'button', 'Help') }),
        (req) => call('click', { ref: refFor(latestMap(req), 'button', 'Pay 20 €') }),
        call('done', { summary: 'Not paid: the user said no.', success: false }),
      ),
    );
    const before = stack.requests().length;
    // Started by a page script: on a stranger's page the run shows in the panel, and only the user answers.
    await page.evaluate(() => {
      (window as any).__result = (window as any).pagehand.run('Fill in Ada Lovelace, open the help, then pay').result;
    });
    await inUi(page, '[data-confirm]').waitFor({ timeout: 30_000 });
    expect(await inUi(page, '[data-confirm]').textContent()).toMatch(/pay/i);
    expect(await frame().inputValue('#holder')).toBe('Ada Lovelace');
    expect(await frame().textContent('#status')).toBe('Help shown 1');
    await inUi(page, '[data-deny]').click();
    const result = await page.evaluate(() => (window as any).__result);
    expect(result.summary).toBe('Not paid: the user said no.');
    expect(await frame().textContent('#status')).toBe('Help shown 1');
    // The model saw the frame's elements under their frame refs.
    const maps = stack.requests().slice(before).map((r) => latestMap(r));
    expect(maps[0]).toMatch(/\[f\d+:\d+\]button "Pay 20 €"/);
    await page.close();
  });
});

describe('what the pages see of it', () => {
  it("neither page's scripts read the frame's content, the parent's calls or the token in the messages; the token is in no global, DOM or storage", async () => {
    const { page, frame } = await openPair();
    const map = await mapAsync(page);
    expect(map.text).toContain('Lighthouse-4827');
    const holder = map.elements.find((e) => e.name === 'Card holder')!.ref;
    const help = map.elements.find((e) => e.name === 'Help')!.ref;
    expect((await act(page, 'type', { ref: holder, text: 'Typed-By-Parent-9917' })).ok).toBe(true);
    expect((await act(page, 'click', { ref: help })).ok).toBe(true);
    await mapAsync(page);

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
  it("the pages' scripts, together, get nothing done in the frame or in the page's map", async () => {
    const { page, frame } = await openPair();
    let map = await mapAsync(page);
    const help = map.elements.find((e) => e.name === 'Help')!.ref;
    // One genuine click: its sealed request is what the frame page's script captures.
    expect((await act(page, 'click', { ref: help })).ok).toBe(true);
    expect(await frame().textContent('#status')).toBe('Help shown 1');

    // The frame page's script hands what it captured to the page's script, which replays it into
    // the frame as the parent; it reflects it back to the parent as the frame; and it sends the
    // parent a forged challenge and forged sealed replies under a random key.
    const captured = ours(await seen(frame()));
    expect(captured.some((m) => m.includes('"sealed"'))).toBe(true);
    await frame().evaluate(async (messages) => {
      const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
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
    await page.evaluate(async ([replays, reflections]) => {
      const win = (document.querySelector('iframe') as HTMLIFrameElement).contentWindow!;
      const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
      const rand = (n: number) => crypto.getRandomValues(new Uint8Array(n));
      const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt']);
      for (const text of replays) win.postMessage(JSON.parse(text), '*'); // replayed, as the parent
      for (const text of reflections) win.postMessage(JSON.parse(text), '*'); // the frame's own replies, reflected
      // A session of its own: a hello (answered with a challenge it cannot use), a confirm with a random proof, and sealed calls under a random key.
      const np = b64(rand(16));
      const challenge = new Promise<any>((resolve) => addEventListener('message', (e) => e.data?.type === 'challenge' && e.data.np === np && resolve(e.data)));
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
      await new Promise((r) => setTimeout(r, 500));
    }, [captured.filter((m) => m.includes('"sealed"')), fromParent] as const);

    // Nothing was clicked again; no forged button came into the map, and the bridge still works.
    expect(await frame().textContent('#status')).toBe('Help shown 1');
    expect(await frame().evaluate(() => (window as any).__helps)).toBe(1);
    map = await mapAsync(page);
    expect(map.text).not.toContain('Forged');
    expect(map.text).toContain('Lighthouse-4827');
    const again = map.elements.find((e) => e.name === 'Help')!.ref;
    expect((await act(page, 'click', { ref: again })).ok).toBe(true);
    expect(await frame().textContent('#status')).toBe('Help shown 2');
    await page.close();
  });

  it('a frame page that speaks the protocol without the key (a forged challenge, sealed maps under its own key) stays opaque', async () => {
    const { page, frame } = await openPair({ child: 'none', page: 'forger.html' });
    for (let i = 0; i < 2; i++) {
      const map = await mapAsync(page);
      expect(map.text, map.text).toMatch(/iframe "Payment".*cross-origin, opaque: use click_at/);
      expect(map.text).not.toContain('Forged');
      expect(map.elements.some((e) => e.frame)).toBe(false);
    }
    // It did try.
    expect(ours(await seen(page)).some((m) => m.includes('"challenge"'))).toBe(true);
    const r = await act(page, 'click', { ref: 'f1:1' });
    expect(r.ok).toBe(false);
    expect(await frame().textContent('#status')).toBe('Not paid');
    await page.close();
  });
});

describe('frames that do not take part stay opaque', () => {
  const opaque = async (pair: Pair) => {
    const { page, frame } = pair;
    for (let i = 0; i < 2; i++) {
      const map = await mapAsync(page);
      expect(map.text, map.text).toMatch(/iframe "Payment".*cross-origin, opaque: use click_at/);
      expect(map.text).not.toContain('Lighthouse-4827');
      expect(map.elements.some((e) => e.frame)).toBe(false);
    }
    // Refs guessed for the frame reach nothing.
    for (let n = 1; n <= 6; n++) expect((await act(page, 'click', { ref: `f1:${n}` })).ok).toBe(false);
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
    const map = await mapAsync(pair.page);
    expect(map.text).not.toContain('Lighthouse-4827');
    expect(map.elements.some((e) => e.frame)).toBe(false);
    for (let n = 1; n <= 6; n++) expect((await act(pair.page, 'click', { ref: `f1:${n}` })).ok).toBe(false);
    expect(ours(await seen(pair.frame()))).toEqual([]);
    expect(await pair.frame().textContent('#status')).toBe('Not paid');
    await pair.page.close();
  });
});
