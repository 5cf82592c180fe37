import { describe, expect, it } from 'vitest';
import { open, useSession } from './harness';
import { act, refOf } from './actions-helpers';

const s = useSession();

describe('settle detection', () => {
  it('waits for a debounced XHR search: the result shows the results, not an empty list', async () => {
    const page = await open(s, 'actions/react.html');
    const r = await act(page, 'type', { ref: await refOf(page, 'searchbox', 'Search products'), text: 'phone' });
    expect(r.ok).toBe(true);
    // Read at once after the action returned: the results must already be there.
    expect(await page.$$eval('#results a', (as) => as.map((a) => a.textContent))).toEqual(['phone alpha', 'phone beta', 'phone gamma']);
    expect(r.changes.newElements).toBe(3);
    expect(r.changes.newSample).toEqual(['link "phone alpha"', 'link "phone beta"', 'link "phone gamma"']);
    expect(r.message).toContain('3 new elements appeared: link "phone alpha", link "phone beta", link "phone gamma".');
    expect(r.changes.stillLoading).toBeUndefined();
    expect(r.timing!.settleMs).toBeGreaterThan(0);
    await page.close();
  });

  it('waits for an XHR answering each keystroke', async () => {
    const page = await open(s, 'actions/settle.html');
    const r = await act(page, 'type', { ref: await refOf(page, 'textbox', 'Filter'), text: 'ab' });
    expect(await page.$$eval('#hits a', (as) => as.map((a) => a.textContent))).toEqual(['ab-1', 'ab-2']);
    expect(r.changes.newElements).toBe(2);
    await page.close();
  });

  it('waits for a chain of DOM updates, and is not held up by an animation loop or a poll', async () => {
    const page = await open(s, 'actions/settle.html');
    const r = await act(page, 'click', { ref: await refOf(page, 'button', 'Run steps') });
    expect(r.ok).toBe(true);
    expect(await page.textContent('#step')).toBe('step 10');
    expect(r.changes.stillLoading).toBeUndefined();
    expect(await page.evaluate(() => (window as any).__polls)).toBeGreaterThan(0);
    await page.close();
  });

  it('reports "still loading" when the bound is hit, then the page finishes on its own', async () => {
    const page = await open(s, 'actions/settle.html');
    const r = await act(page, 'click', { ref: await refOf(page, 'button', 'Load report') }, { settleTimeout: 300 });
    expect(r.ok).toBe(true);
    expect(r.changes.stillLoading).toEqual({ pendingRequests: 1, domBusy: false });
    expect(r.message).toBe('Clicked button "Load report". The page is still loading (1 request pending); observe again or wait.');
    expect(await page.textContent('#report')).toBe('');
    await page.waitForFunction(() => document.querySelectorAll('#report button').length === 2);
    // With a larger bound the same action reports the new buttons.
    await page.evaluate(() => ((window as any).__reportMs = 500));
    const r2 = await act(page, 'click', { ref: await refOf(page, 'button', 'Load report') });
    expect(r2.changes.stillLoading).toBeUndefined();
    await page.close();
  });

  it('counts a failed request as finished', async () => {
    const page = await open(s, 'actions/settle.html');
    const r = await act(page, 'click', { ref: await refOf(page, 'button', 'Load broken') }, { settleTimeout: 4000 });
    expect(r.changes.stillLoading).toBeUndefined();
    expect(await page.textContent('#fail-out')).toBe('TypeError');
    await page.close();
  });

  it('waits for an infinite list to load its next page after a scroll', async () => {
    const page = await open(s, 'actions/scroll.html');
    const r = await act(page, 'scroll', { direction: 'down', pages: 20 });
    expect(r.ok).toBe(true);
    expect(await page.textContent('#status')).toBe('loaded page 1');
    expect(r.changes.newElements).toBe(10);
    expect(r.message).toMatch(/^Scrolled the page down by 20 pages\. Now \d+% down\. 10 new elements appeared: link "Post 31"/);
    expect(r.changes.scroll).toMatchObject({ target: 'page', atTop: false, atBottom: false });
    await page.close();
  });
});

describe('fetch/XHR instrumentation is transparent', () => {
  // The same probe runs on a page without pagehand and on one with it loaded at document start.
  const probe = async () => {
    const out: Record<string, unknown> = {};
    const res = await fetch('/slow?ms=0&body=%7B%22a%22%3A1%7D');
    out.fetchType = Object.prototype.toString.call(res);
    out.fetchJson = await res.json();
    out.fetchIsResponse = res instanceof Response;
    out.fetchLength = fetch.length;
    out.names = [fetch.name, setTimeout.name, clearTimeout.name, XMLHttpRequest.prototype.send.name, setTimeout.length, clearTimeout.length];
    out.fetchViaWindow = (await window.fetch.call(window, '/slow?ms=0&body=1')).status;
    try {
      await fetch('http://127.0.0.1:9/');
      out.fetchReject = 'resolved';
    } catch (e) {
      out.fetchReject = `${(e as Error).name}`;
    }
    try {
      (({ f: fetch }) as unknown as { f: typeof fetch }).f('/x');
      out.illegal = 'no error';
    } catch (e) {
      out.illegal = (e as Error).name;
    }
    const xhr = new XMLHttpRequest();
    out.xhrInstance = xhr instanceof XMLHttpRequest;
    out.sendLength = XMLHttpRequest.prototype.send.length;
    out.sendEnumerable = Object.getOwnPropertyDescriptor(XMLHttpRequest.prototype, 'send')?.enumerable;
    out.xhr = await new Promise((resolve) => {
      xhr.open('GET', '/slow?ms=0&body=hello');
      xhr.onload = () => resolve([xhr.status, xhr.responseText, xhr.readyState]);
      xhr.send();
    });
    const sync = new XMLHttpRequest();
    sync.open('GET', '/slow?ms=0&body=sync', false);
    sync.send();
    out.sync = sync.responseText;
    const notOpened = new XMLHttpRequest();
    try {
      notOpened.send();
      out.sendUnopened = 'no error';
    } catch (e) {
      out.sendUnopened = (e as DOMException).name;
    }
    out.unhandled = await new Promise((resolve) => {
      const on = (e: PromiseRejectionEvent) => {
        window.removeEventListener('unhandledrejection', on);
        e.preventDefault();
        resolve((e.reason as Error).name);
      };
      window.addEventListener('unhandledrejection', on);
      void fetch('http://127.0.0.1:9/');
    });
    const timerThis = await new Promise((resolve) =>
      setTimeout(
        function (this: unknown, a: number, b: number) {
          resolve([this === window, a + b]);
        },
        0,
        2,
        3,
      ),
    );
    out.timerThis = timerThis;
    out.timerId = typeof setTimeout(() => {}, 0);
    return out;
  };

  it('returns the same values, errors and this, with and without pagehand, and adds no globals', async () => {
    const bare = await s.context.newPage();
    await bare.goto(`${(await import('./harness')).origin()}/fixtures/actions/settle.html`);
    const globalsBefore: string[] = await bare.evaluate(() => Object.getOwnPropertyNames(window));
    const native = await bare.evaluate(probe);
    await bare.close();
    const page = await open(s, 'actions/settle.html', { early: true });
    const globalsAfter: string[] = await page.evaluate(() => Object.getOwnPropertyNames(window));
    const withPagehand = await page.evaluate(probe);
    expect(withPagehand).toEqual(native);
    expect(native).toMatchObject({
      fetchJson: { a: 1 },
      fetchReject: 'TypeError',
      xhr: [200, 'hello', 4],
      sync: 'sync',
      sendUnopened: 'InvalidStateError',
      unhandled: 'TypeError',
      timerThis: [true, 5],
    });
    const added = globalsAfter.filter((g) => !globalsBefore.includes(g));
    expect(added).toEqual(['pagehand']);
    await page.close();
  });
});

describe('settle waits for motion', () => {
  const panels = [
    { open: 'Delivery (slides down by timers)', links: ['Shipping policy', 'Returns policy'] },
    { open: 'Payment (slides down by animation frames)', links: ['Card payments', 'Invoice payments'] },
    { open: 'Warranty (a CSS transition)', links: ['Cover details', 'Making a claim'] },
    { open: 'Sizes (a CSS animation)', links: ['Size chart', 'Fit guide'] },
    { open: 'Care (Web Animations)', links: ['Washing', 'Drying'] },
  ];
  for (const p of panels) {
    it(`an accordion opening over 600 ms: ${p.open} — the next map lists the links at its bottom too`, async () => {
      const page = await open(s, 'actions/animations.html');
      const r = await act(page, 'click', { ref: await refOf(page, 'button', p.open) });
      expect(r.ok, r.message).toBe(true);
      expect(r.changes.stillLoading).toBeUndefined();
      // Taken at once after the action returned, as the agent's next observation is.
      const names = await page.evaluate(() => (window as any).pagehand.map().elements.map((e: any) => e.name));
      for (const l of p.links) expect(names, `${l} after ${p.open}`).toContain(l);
      await page.close();
    });
  }
});
