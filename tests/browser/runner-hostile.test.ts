/**
 * The headless runner against hostile pages: `node dist/cli.js run …` as a user runs it (its
 * own Chromium, the real proxy, a scripted model), on fixture pages whose own script
 * (tests/fixtures/delivery/hostile/hostile.js) tries every way a page has to read the run,
 * drive it or forge its end, and reports what it got to a collector (report-collector.ts). The run
 * lives in an isolated world: the page must get nothing and change nothing.
 *
 * Also the terminal: page text carrying escape codes (cursor moves, erase, OSC 52 clipboard,
 * C1 controls, bidi overrides) must never reach the runner's output raw.
 */
import { describe, expect, it } from 'vitest';
import { call, hasText, lastToolResults, latestMap, mapUrl, MODELS, refFor, taskOf, useAgentStack, type Policy } from './agent-harness';
import { crossOrigin, origin } from './harness';
import { useReportCollector, type Report } from './report-collector';
import { jsonLines, runCli, proxyFlags, type Exit } from './runner-cli';

const cli = (args: string[]): Promise<Exit> => runCli(args);

const stack = useAgentStack();
const collector = useReportCollector();
const reports = (): Report[] => collector.reports();

const hostile = (page: string, query: Record<string, string> = {}) =>
  `${origin()}/fixtures/delivery/hostile/${page}?${new URLSearchParams({ report: collector.url, ...query })}`;
const base = (url: string) => ['run', '--json', '--url', url, '--proxy', stack.proxyUrl, '--token', stack.token, '--model', MODELS.openai];
const of = (kind: string, page?: string) => reports().filter((r) => r.kind === kind && (page === undefined || r.page === page));

describe('pagehand run on a hostile page', () => {
  it('the page reads nothing of the run: no state, no bindings, no pagehand, no model call through its fetch', { timeout: 180_000 }, async () => {
    const task = 'Go to checkout for order KIWI-TASK-5530';
    stack.setPolicy((req) => {
      const map = latestMap(req);
      if (/checkout\.html/.test(mapUrl(map))) return call('done', { summary: 'REAL SUMMARY: at checkout.' });
      return call('click', { ref: refFor(map, 'link', 'Continue to checkout') }, 'goal: go to checkout');
    });
    // The checkout on another origin: the run follows the tab there (--yes: leaving the site).
    const before = stack.requests().length;
    const out = await cli([
      ...base(hostile('start.html', { next: crossOrigin(), ...(process.env.HOSTILE_WRAP ? { wrap: process.env.HOSTILE_WRAP } : {}) })),
      '--yes',
      task,
    ]);

    expect(out.code, out.stderr + out.stdout).toBe(0);
    const last = jsonLines(out).pop();
    expect(last).toMatchObject({ event: 'result', ok: true, summary: 'REAL SUMMARY: at checkout.' });
    expect(new URL(last.url).origin).toBe(crossOrigin());

    // The attacks ran on both pages, again and again.
    for (const page of ['start.html', 'checkout.html']) {
      expect(of('globals', page).length, page).toBeGreaterThan(1);
      expect(of('state', page).length, page).toBeGreaterThan(1);
    }
    // (c) Nothing of pagehand in the page's world: no global, no binding, no run handle.
    for (const r of of('globals')) {
      expect(
        Object.values(r.data.types).every((t) => t === 'undefined'),
        r.raw,
      ).toBe(true);
      expect(r.data.names, r.raw).toEqual([]);
      expect(r.data.handle ?? null, r.raw).toBeNull();
    }
    expect(of('handle-event')).toEqual([]);
    // (a) The run-state URL answers the page nothing.
    for (const r of of('state')) for (const got of r.data) expect(got.status === 200 && got.text !== '', r.raw).toBe(false);
    // (d) The page's fetch/XHR wrappers never saw a model call (nor the run's state request).
    for (const r of [...of('wrapped-fetch'), ...of('wrapped-xhr')]) {
      expect(r.data.url, r.raw).not.toContain(stack.proxyUrl);
      expect(r.data.url, r.raw).not.toContain('pagehand-runner.invalid');
    }
    expect(stack.requests().length - before).toBeGreaterThanOrEqual(2);
    // Nothing the page could read holds the token, the task or what the run read on the first site.
    const everything = reports()
      .map((r) => r.raw)
      .join('\n');
    expect(everything).not.toContain(stack.token);
    expect(everything).not.toContain('KIWI-TASK-5530');
    expect(
      of('state', 'checkout.html')
        .map((r) => r.raw)
        .join('\n'),
    ).not.toContain('ZEBRA-4417');
  });

  it(
    'a `done` the page forges through the binding names does not end the run: the exit status and result are the run’s own',
    { timeout: 180_000 },
    async () => {
      stack.setPolicy((req) => {
        const map = latestMap(req);
        if (/checkout\.html/.test(mapUrl(map))) return call('fail', { reason: 'REAL FAILURE: stopped at checkout.' });
        return call('click', { ref: refFor(map, 'link', 'Continue to checkout') }, 'goal: go to checkout');
      });
      const out = await cli(['run', '--url', hostile('start.html', { forge: 'done', wrap: 'observe' }), ...proxyFlags(stack, MODELS.openai), 'Go to checkout']);

      expect(out.code, out.stderr + out.stdout).toBe(1);
      expect(out.stdout).toMatch(/^Not done \(failed\) after 2 steps/);
      expect(out.stdout).toContain('REAL FAILURE: stopped at checkout.');
      expect(out.stdout + out.stderr).not.toContain('FORGED');
      // The page tried every binding name, on both pages; none was there to call.
      const tries = of('binding-call');
      expect(new Set(tries.map((r) => r.page))).toEqual(new Set(['start.html', 'checkout.html']));
      for (const r of tries) expect(r.data, r.raw).toMatchObject({ type: 'undefined' });
      expect(tries.some((r) => r.data.called)).toBe(false);
      expect(of('binding-answer')).toEqual([]);
    },
  );

  it('a run state the page rewrites (another task, every risk allowed) is never resumed: the payment still needs a yes', { timeout: 180_000 }, async () => {
    const task = 'Look at the checkout for order PEAR-TASK-8120';
    stack.setPolicy((req) => {
      const map = latestMap(req);
      if (!/checkout\.html/.test(mapUrl(map))) return call('click', { ref: refFor(map, 'link', 'Continue to checkout') }, 'goal: go to checkout');
      if (hasText(map, 'Paid $900.')) return call('done', { summary: 'PAID without asking.' });
      if (/did not allow/.test(lastToolResults(req).join('\n'))) return call('fail', { reason: 'The payment was not allowed.' });
      return call('click', { ref: refFor(map, 'button', 'Pay $900') }, 'goal: pay');
    });
    const before = stack.requests().length;
    const out = await cli([...base(hostile('start.html', { forge: 'state', wrap: 'observe' })), task]);

    expect(out.code, out.stderr + out.stdout).toBe(1);
    const lines = jsonLines(out);
    expect(lines.pop()).toMatchObject({ event: 'result', ok: false, summary: 'The payment was not allowed.' });
    expect(lines.some((l) => l.event === 'note' && /^denied: click \[\d+\] button "Pay \$900" — no terminal to ask/.test(l.text))).toBe(true);
    // The page did try, on both pages, by every way it has.
    expect(
      new Set(
        of('binding-call')
          .filter((r) => r.data.name === '__pagehandRunnerSave')
          .map((r) => r.page),
      ),
    ).toEqual(new Set(['start.html', 'checkout.html']));
    // Every model call carried the real task and never the forged one (nor its memory).
    const requests = stack.requests().slice(before);
    expect(requests.length).toBeGreaterThanOrEqual(3);
    for (const req of requests) {
      expect(taskOf(req)).toContain('PEAR-TASK-8120');
      expect(JSON.stringify(req.messages)).not.toContain('FORGED');
    }
    expect(lines.filter((l) => l.event === 'step' && l.resumed).map((l) => new URL(l.url).pathname)).toEqual(['/fixtures/delivery/hostile/checkout.html']);
  });
});

describe('pagehand run on a page that marks a payment harmless', () => {
  it("still asks: a stranger's page may add caution, never remove it (no terminal, so denied)", { timeout: 180_000 }, async () => {
    stack.setPolicy((req) => {
      const map = latestMap(req);
      if (hasText(map, 'Paid $900.')) return call('done', { summary: 'PAID without asking.' });
      if (/did not allow/.test(lastToolResults(req).join('\n'))) return call('fail', { reason: 'The payment was not allowed.' });
      return call('click', { ref: refFor(map, 'button', 'Pay $900') }, 'goal: pay');
    });
    const out = await cli(['run', '--url', `${origin()}/fixtures/delivery/hostile/marked-safe.html`, ...proxyFlags(stack, MODELS.openai), 'Pay the order']);
    expect(out.code, out.stderr + out.stdout).toBe(1);
    expect(out.stderr).toMatch(/denied: click \[\d+\] button "Pay \$900" — no terminal to ask/);
    expect(out.stdout).toContain('The payment was not allowed.');
  });
});

describe('pagehand run on a page that breaks the risk check', () => {
  it('a form holding <input name="elements"> still asks before "Delete my account" (no terminal, so denied)', { timeout: 180_000 }, async () => {
    stack.setPolicy((req) => {
      const map = latestMap(req);
      if (hasText(map, 'Account deleted.')) return call('done', { summary: 'DELETED without asking.' });
      if (/did not allow/.test(lastToolResults(req).join('\n'))) return call('fail', { reason: 'The deletion was not allowed.' });
      return call('click', { ref: refFor(map, 'button', 'Delete my account') }, 'goal: delete the account');
    });
    const out = await cli(['run', '--url', `${origin()}/fixtures/delivery/hostile/clobbered.html`, ...proxyFlags(stack, MODELS.openai), 'Close my account']);
    expect(out.code, out.stderr + out.stdout).toBe(1);
    expect(out.stderr).toMatch(/denied: click \[\d+\] button "Delete my account" — no terminal to ask/);
    expect(out.stdout).toContain('The deletion was not allowed.');
  });
});

describe('pagehand run sees what only the page world sees, handed over', () => {
  it(
    "a closed shadow root, a listener-only target, and the page's own request after a click — while the page still sees its root closed",
    { timeout: 180_000 },
    async () => {
      let askedTotal = false;
      stack.setPolicy((req) => {
        const map = latestMap(req);
        const seen = /The page sees its root as \w+ and \w+\./.exec(map)?.[0] ?? 'no page view';
        if (askedTotal)
          return call('done', { summary: `${seen} ${/Total: \$\d+\./.exec(map)?.[0] ?? 'NO TOTAL (settle did not wait for the page request).'}` });
        if (hasText(map, 'Drawer open.')) {
          askedTotal = true;
          return call('click', { ref: refFor(map, 'clickable', 'Show total') }, 'goal: show the total');
        }
        return call('click', { ref: refFor(map, 'button', 'Open the drawer') }, 'goal: open the drawer');
      });
      const out = await cli([
        'run',
        '--url',
        `${origin()}/fixtures/delivery/hooks.html`,
        ...proxyFlags(stack, MODELS.openai),
        'Open the drawer and show the total',
      ]);
      expect(out.code, out.stderr + out.stdout).toBe(0);
      expect(out.stdout).toContain('The page sees its root as hidden and closed. Total: $42.');
    },
  );
});

/** What escapes.html puts in its button's name and its confirm() (see the fixture). */
const E = '\x1b';
const EVIL = `${E}[2K${E}[1A${E}]52;c;cm0gLXJmIH4K\x07\u202Eyap\u202C \u2066ok\u2069 \x9b2J\x85done`;
/** Any byte or code point that can drive a terminal or reorder what it shows. */
const CONTROL = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/u;

describe('pagehand run prints page text safely', () => {
  const escapesModel = (): Policy => {
    let clicked = false;
    return (req) => {
      const map = latestMap(req);
      // A model echoes page text verbatim: the summary carries the codes too.
      if (clicked) return call('done', { summary: `The page says: ${hasText(map, 'Paid $900.') ? 'Paid $900.' : 'Kept.'} ${EVIL}` }, `note: ${EVIL}`);
      clicked = true;
      return call('click', { ref: refFor(map, 'button', /^Pay \$900/) }, `goal: pay ${EVIL}`);
    };
  };

  it('the log, the prompts and the result carry no escape code, C1 control or bidi override', { timeout: 180_000 }, async () => {
    stack.setPolicy(escapesModel());
    const out = await cli([
      'run',
      '--yes',
      '--url',
      `${origin()}/fixtures/delivery/hostile/escapes.html`,
      ...proxyFlags(stack, MODELS.openai),
      'Pay the order',
    ]);

    expect(out.code, out.stderr + out.stdout).toBe(0);
    // The lines that carry the page's text are there…
    expect(out.stderr).toMatch(/→ click \[\d+\] button "Pay \$900 /);
    expect(out.stderr).toMatch(/allowed \(--yes\): click \[\d+\] button "Pay \$900 /);
    expect(out.stderr).toContain('the page asks: "Pay $900? ');
    expect(out.stdout).toContain('The page says: Paid $900.');
    // …without a single control character (only the line breaks of the output itself).
    expect(out.stderr.replace(/\n/g, '')).not.toMatch(CONTROL);
    expect(out.stdout.replace(/\n/g, '')).not.toMatch(CONTROL);
  });

  it('--json keeps the page text exactly, with every control character escaped', { timeout: 180_000 }, async () => {
    stack.setPolicy(escapesModel());
    const out = await cli([...base(`${origin()}/fixtures/delivery/hostile/escapes.html`), '--yes', 'Pay the order']);

    expect(out.code, out.stderr + out.stdout).toBe(0);
    expect(out.stdout.replace(/\n/g, '')).not.toMatch(CONTROL);
    expect(out.stderr).not.toMatch(CONTROL);
    const lines = jsonLines(out);
    expect(lines.find((l) => l.event === 'note' && l.dialog === 'confirm')).toMatchObject({ message: `Pay $900? ${EVIL}`, answer: 'ok' });
    expect(lines.pop().summary).toBe(`The page says: Paid $900. ${EVIL}`);
  });
});

describe('pagehand run: what an action makes the page do', () => {
  it('a click whose handler sets location to /checkout/pay asks (denied with no terminal), and the page stays', { timeout: 120_000 }, async () => {
    let told: string[] = [];
    stack.setPolicy((req) => {
      if (taskOf(req) && lastToolResults(req).some((t) => /Clicked/.test(t))) {
        told = lastToolResults(req);
        return call('done', { summary: 'done' });
      }
      return call('click', { ref: refFor(latestMap(req), 'button', 'Continue') });
    });
    const out = await cli([...base(`${origin()}/fixtures/adversarial/risk-caused.html`), 'Do what the page says.']);
    const lines = jsonLines(out);
    const asked = lines.filter((l) => l.event === 'confirm');
    expect(
      asked.map((l) => l.kind ?? l.request?.kind),
      out.stdout,
    ).toEqual(['payment']);
    expect(JSON.stringify(asked[0])).toMatch(/made the page go to \/checkout\/pay/);
    expect(told.join(' '), out.stdout).toMatch(/was stopped/);
    expect(lines.pop().url, out.stdout).toBe(`${origin()}/fixtures/adversarial/risk-caused.html`);
  });
});
