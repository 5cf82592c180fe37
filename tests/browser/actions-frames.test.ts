/**
 * Frames from another origin, when the site's pagehand runs in both: a page on one origin embeds
 * a payment frame served from the other (the static server's `origin` and `crossOrigin`). Each
 * loads the bundle with a script tag (proxy and token) and lists the other with init({ frames }).
 * The frame's map joins the page's with frame-prefixed refs, its elements take actions, and the
 * risk check judges them as the frame sees them. A frame that does not list the page, a page
 * that does not list the frame, another token, or a forged message: the frame stays opaque.
 */
import type { Frame, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { call, latestMap, MODELS, refFor, sequence, useAgentStack } from './agent-harness';
import { crossOrigin, origin, useSession } from './harness';

const session = useSession();
const stack = useAgentStack();

interface Setup {
  /** Origins the page lists (default: the frame's). */
  pageLists?: string[];
  /** Origins the frame lists (default: the page's). */
  frameLists?: string[];
  /** The frame's token (default: the page's). */
  frameToken?: string;
}

/** The page (origin) with the payment frame (crossOrigin), both with the site's embed (frames-embed.js). */
async function openPair(setup: Setup = {}): Promise<{ page: Page; frame: () => Frame }> {
  const query = (token: string, lists: string[]) => new URLSearchParams({ proxy: stack.proxyUrl, token, lists: lists.join(',') }).toString();
  const childQuery = query(setup.frameToken ?? stack.token, setup.frameLists ?? [origin()]);
  const parentUrl = `${origin()}/fixtures/actions/frames-parent.html?${query(stack.token, setup.pageLists ?? [crossOrigin()])}&${new URLSearchParams({ child: crossOrigin(), childQuery })}`;
  const page = await session.context.newPage();
  page.on('pageerror', (e) => console.error('[page error]', e.message));
  await page.goto(parentUrl);
  const frame = (): Frame => page.frames().find((f) => f.url().includes('frames-child.html'))!;
  await page.waitForFunction(() => !!(window as any).pagehand);
  await expect
    .poll(() =>
      frame()
        ?.evaluate(() => !!(window as any).pagehand)
        .catch(() => false),
    )
    .toBe(true);
  return { page, frame };
}

const mapAsync = (
  page: Page,
): Promise<{ text: string; elements: Array<{ ref: string; role: string; name: string; frame?: string; rect: { x: number; y: number } }> }> =>
  page.evaluate(() => (window as any).pagehand.mapAsync({ maxTokens: 3000 }));

describe('a frame from another origin that takes part', () => {
  it("its map joins the page's, under the frame's line, with frame-prefixed refs and boxes in the page", async () => {
    const { page } = await openPair();
    const map = await mapAsync(page);
    const pay = map.elements.find((e) => e.name === 'Pay 20 €');
    expect(pay, map.text).toBeDefined();
    expect(pay!.ref).toMatch(/^f\d+:\d+$/);
    expect(pay!.frame).toBe(pay!.ref.split(':')[0]);
    const lines = map.text.split('\n');
    const frameLine = lines.findIndex((l) => /iframe "Payment"( \d+x\d+)? \(frame f\d+ from http:\/\/localhost:\d+\)/.test(l));
    expect(frameLine, map.text).toBeGreaterThan(-1);
    expect(lines.findIndex((l) => l.includes(`[${pay!.ref}]button "Pay 20 €"`))).toBeGreaterThan(frameLine);
    // The frame's box is offset by where the frame sits in the page.
    const box = (await page.locator('iframe').boundingBox())!;
    expect(pay!.rect.y).toBeGreaterThan(box.y);
    // Text in the frame that looks like a ref names nothing.
    expect(map.text).toContain('Footnote (7)button "Fake" and (f1:9) are only text.');
    await page.close();
  });

  it('its elements take actions: type, then click; the frame reports what changed', async () => {
    const { page, frame } = await openPair();
    const map = await mapAsync(page);
    const holder = map.elements.find((e) => e.name === 'Card holder')!.ref;
    const help = map.elements.find((e) => e.name === 'Help')!.ref;
    let r = await page.evaluate((ref) => (window as any).pagehand.act({ name: 'type', args: { ref, text: 'Ada Lovelace' } }), holder);
    expect(r.ok, r.message).toBe(true);
    expect(await frame().inputValue('#holder')).toBe('Ada Lovelace');
    r = await page.evaluate((ref) => (window as any).pagehand.act({ name: 'click', args: { ref } }), help);
    expect(r.ok, r.message).toBe(true);
    expect(r.message).toMatch(/^Clicked button "Help"\./);
    expect(await frame().textContent('#status')).toBe('Help shown');
    await page.close();
  });

  it('through a run: the pay button in the frame is judged a payment and asked about; denied, nothing is paid', async () => {
    const { page, frame } = await openPair();
    const confirms: string[] = [];
    await page.exposeFunction('__confirm', (kind: string) => {
      confirms.push(kind);
      return false;
    });
    stack.setPolicy(
      sequence(
        (req) => call('type', { ref: refFor(latestMap(req), 'textbox', 'Card holder'), text: 'Ada Lovelace' }),
        (req) => call('click', { ref: refFor(latestMap(req), 'button', 'Pay 20 €') }),
        call('done', { summary: 'Not paid: the user said no.', success: false }),
      ),
    );
    const result = await page.evaluate(
      ([proxy, token, model]) =>
        (window as any).pagehand.run('Pay with the card of Ada Lovelace', {
          proxy,
          token,
          model,
          ui: false,
          confirm: (r: any) => (window as any).__confirm(r.kind),
        }).result,
      [stack.proxyUrl, stack.token, MODELS.openai] as const,
    );
    expect(confirms).toEqual(['payment']);
    expect(result.summary).toBe('Not paid: the user said no.');
    expect(await frame().inputValue('#holder')).toBe('Ada Lovelace');
    expect(await frame().textContent('#status')).toBe('Not paid');
    await page.close();
  });
});

describe('frames that do not take part stay opaque', () => {
  const opaque = async (setup: Setup) => {
    const { page, frame } = await openPair(setup);
    const map = await mapAsync(page);
    expect(map.text, map.text).toMatch(/iframe "Payment".*cross-origin, opaque: use click_at/);
    expect(map.elements.some((e) => e.frame)).toBe(false);
    // A ref guessed for the frame reaches nothing.
    const r = await page.evaluate(() => (window as any).pagehand.act({ name: 'click', args: { ref: 'f1:2' } }));
    expect(r.ok).toBe(false);
    expect(await frame().textContent('#status')).toBe('Not paid');
    await page.close();
  };

  it('the frame does not list the page', () => opaque({ frameLists: ['https://shop.example'] }));
  it('the page does not list the frame', () => opaque({ pageLists: ['https://pay.example'] }));
  it('the frame runs pagehand with another token', () => opaque({ frameToken: 'another-sites-token' }));
});

describe('forged messages', () => {
  it("a script in the page cannot open a session the frame answers, nor act in it without the session's nonce", async () => {
    // The page lists nobody: pagehand opens no session, the script tries on its own.
    const { page, frame } = await openPair({ pageLists: [] });
    const sent = await page.evaluate(
      ([proxy, token]) => {
        const win = (document.querySelector('iframe') as HTMLIFrameElement).contentWindow!;
        const got: unknown[] = [];
        addEventListener('message', (e) => got.push(e.data));
        const m = { channel: 'pagehand-frames', v: 1 };
        // No session yet: acts and maps with any nonce are ignored.
        win.postMessage({ ...m, type: 'act', nonce: 'AAAAAAAAAAAAAAAAAAAAAA', id: 1, call: { name: 'click', args: { ref: '2' } }, judged: null }, '*');
        win.postMessage({ ...m, type: 'map', nonce: 'AAAAAAAAAAAAAAAAAAAAAA', id: 2, maxTokens: 500 }, '*');
        // A hello from this origin with the right proxy and token is answered (the page is listed by the frame)...
        win.postMessage({ ...m, type: 'hello', nonce: 'BBBBBBBBBBBBBBBBBBBBBB', proxy, token }, '*');
        return new Promise<unknown[]>((resolve) =>
          setTimeout(() => {
            // ...but an act carrying another nonce than the session's is not.
            win.postMessage({ ...m, type: 'act', nonce: 'CCCCCCCCCCCCCCCCCCCCCC', id: 3, call: { name: 'click', args: { ref: '2' } }, judged: null }, '*');
            setTimeout(() => resolve(got), 500);
          }, 300),
        );
      },
      [stack.proxyUrl, stack.token] as const,
    );
    const types = (sent as Array<{ type?: string }>).filter((m) => m && (m as any).channel === 'pagehand-frames').map((m) => m.type);
    expect(types).toEqual(['ready']);
    expect(await frame().textContent('#status')).toBe('Not paid');
    await page.close();
  });
});
