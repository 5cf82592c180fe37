/**
 * Values the agent may type but not see, and the site's redaction, end to end (real proxy,
 * scripted model, Chromium). The model reads `<secret:NAME>` wherever a value shows — page
 * text, a field's value in the map, what `read` and `find` return, what an action reports
 * (even cut short) — `type` puts the real value into the page, and no request body the model
 * receives holds a value, in any form. A hijacked model cannot carry a value off through
 * another tool: a URL to navigate to keeps the placeholder. `init({ redact })` masks other
 * page text (an element by selector, text by pattern) the same way.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../server/fakes/model-request';
import { call, lastToolResults, latestMap, openWithAgent, refFor, runAgent, sequence, useAgentStack } from './agent-harness';
import { origin, useSession } from './harness';
import { bookmarkletReady, clickBookmarklet } from './ui-kit';

const session = useSession();
const stack = useAgentStack();

const CARD = '4111 1111 1111 1111';
// Long (an action report cuts text at 77 characters), with a quote and a backslash (JSON escapes them).
const API_KEY = 'sk-live-"quoted"\\part-0123456789abcdefghijklmnopqrstuvwxyz-0123456789-ABCDEFGHIJKLMNOPQRSTUVWXYZ-end';
const PASSWORD = 'hunter2-Correct-Horse!';
const SECRETS = { card: CARD, apikey: API_KEY, password: PASSWORD };

/** Every form a value could take in a request body we did not mask. */
function leaks(body: unknown, values: string[]): string[] {
  const raw = JSON.stringify(body);
  const out: string[] = [];
  for (const v of values) {
    const forms = [v, JSON.stringify(v).slice(1, -1), JSON.stringify(JSON.stringify(v)).slice(1, -1), v.slice(0, 24)];
    for (const f of forms) if (raw.includes(f)) out.push(f);
  }
  return out;
}

describe('secrets', () => {
  it('the model types <secret:NAME>, the page gets the value, and no request body holds it', async () => {
    const page = await openWithAgent(session, 'secrets/account.html', { early: true });
    const earlier = stack.requests().length;
    const maps: string[] = [];
    const results: string[][] = [];
    let system = '';
    stack.setPolicy(
      sequence(
        (req) => {
          system = req.messages[0]!.text;
          const map = latestMap(req);
          maps.push(map);
          return {
            toolCalls: [
              { name: 'type', args: { ref: refFor(map, 'textbox', 'Name'), text: 'Ada' } },
              { name: 'type', args: { ref: refFor(map, 'textbox', 'Card number'), text: '<secret:card>' } },
              { name: 'type', args: { ref: refFor(map, 'textbox', 'API key'), text: '<secret:apikey>' } },
              { name: 'type', args: { ref: refFor(map, 'textbox', 'Password'), text: '<secret:password>' } },
            ],
          };
        },
        (req) => {
          maps.push(latestMap(req));
          results.push(lastToolResults(req));
          return call('read', {});
        },
        (req) => {
          results.push(lastToolResults(req));
          return call('find', { query: 'Key preview' });
        },
        (req) => {
          results.push(lastToolResults(req));
          // Probing: does the page hold a card starting 4111? find must not say.
          return call('find', { query: '4111' });
        },
        (req) => {
          results.push(lastToolResults(req));
          return call('done', { summary: 'Saved.' });
        },
      ),
    );
    const run = await runAgent(page, stack, 'Fill in my payment details.', { secrets: SECRETS });
    expect(await run.result).toMatchObject({ ok: true });

    // The page got the values.
    expect(
      await page.evaluate(() => {
        const f = document.getElementById('pay') as HTMLFormElement;
        const v = (n: string) => (f.elements.namedItem(n) as HTMLInputElement).value;
        return [v('name'), v('card'), v('apikey'), v('password')];
      }),
    ).toEqual(['Ada', CARD, API_KEY, PASSWORD]);

    // The model was told the names, never the values.
    expect(system).toContain('<secret:card>, <secret:apikey>, <secret:password>');
    // Page text that shows a value, a field's value and what the page echoed: placeholders.
    expect(maps[0]).toContain('Saved card: <secret:card>');
    expect(maps[1]).toMatch(/textbox "Card number" value="<secret:card>"/);
    expect(maps[1]).toMatch(/textbox "API key" value="<secret:apikey>"/);
    expect(maps[1]).toContain('Key preview: <secret:apikey>');
    // What the type actions reported (the long key cut at 77 characters included).
    expect(results[0]!.join('\n')).toMatch(/Typed "<secret:card>" into/);
    expect(results[0]!.join('\n')).toMatch(/Typed "<secret:apikey>/);
    // read and find.
    expect(results[1]!.join('\n')).toContain('Saved card: <secret:card>');
    expect(results[1]!.join('\n')).toContain('Key preview: <secret:apikey>');
    expect(results[2]!.join('\n')).toContain('<secret:apikey>');
    expect(results[3]!.join('\n')).toMatch(/0 elements, 0 text matches/);

    // No request body the model received holds any value, raw, escaped or cut.
    const bodies = stack
      .requests()
      .slice(earlier)
      .map((r: ModelRequest) => r.body);
    expect(bodies.length).toBe(5);
    for (const b of bodies) expect(leaks(b, [CARD, API_KEY, PASSWORD])).toEqual([]);
    // Nor what the run reported to the page's listeners.
    const events = JSON.stringify(run.events);
    expect(leaks(events, [API_KEY, PASSWORD])).toEqual([]);
    expect(events).not.toContain(`"${CARD}"`);
    await page.close();
  }, 60_000);

  it('a hijacked model cannot carry a value off in a URL, and an unknown name types nothing', async () => {
    const page = await openWithAgent(session, 'secrets/account.html', { early: true });
    const results: string[][] = [];
    let after = '';
    stack.setPolicy(
      sequence(
        (req) => call('type', { ref: refFor(latestMap(req), 'textbox', 'Name'), text: 'x <secret:pin>' }),
        (req) => (results.push(lastToolResults(req)), call('navigate', { url: '?leak=<secret:card>' })),
        (req) => ((after = latestMap(req)), call('done', { summary: 'Done.' })),
      ),
    );
    const run = await runAgent(page, stack, 'Fill in my payment details.', { secrets: SECRETS });
    await run.result;
    expect(results[0]!.join('\n')).toMatch(/There is no secret named "pin"; the secrets are <secret:card>, <secret:apikey>, <secret:password>\./);
    // Only type fills a placeholder in: the URL the page was sent to holds the placeholder.
    expect(new URL(page.url()).search).toBe('?leak=%3Csecret:card%3E');
    expect(after).toMatch(/\?leak=%3Csecret:card%3E/);
    for (const r of stack.requests()) expect(leaks(r.body, [CARD, API_KEY, PASSWORD])).toEqual([]);
    await page.close();
  }, 60_000);

  it("on a stranger's page (the bookmarklet) the values are not saved where the page can read them", async () => {
    const page = await session.context.newPage();
    await page.goto(`${origin()}/fixtures/agent/secrets/account.html`);
    await clickBookmarklet(page, stack);
    await bookmarkletReady(page);
    const saved: string[] = [];
    stack.setPolicy(
      sequence(
        (req) => call('type', { ref: refFor(latestMap(req), 'textbox', 'Card number'), text: '<secret:card>' }),
        async () => {
          saved.push((await page.evaluate(() => sessionStorage.getItem('pagehand:run'))) ?? '');
          return call('done', { summary: 'Entered.' });
        },
      ),
    );
    await page.evaluate(
      ([proxy, token]) => (window as any).pagehand.run('Enter my card.', { proxy, token, model: 'gpt-test', secrets: { card: '5500 0000 0000 0004' } }).result,
      [stack.proxyUrl, stack.token] as const,
    );
    expect(await page.inputValue('[name=card]')).toBe('5500 0000 0000 0004');
    expect(saved[0]).toContain('"task":"Enter my card."');
    expect(saved[0]).not.toContain('5500 0000');
    await page.close();
  }, 60_000);

  it('a bad secrets option is the caller’s error, thrown at once', async () => {
    const page = await openWithAgent(session, 'secrets/account.html', { early: true });
    const thrown = await page.evaluate(() => {
      try {
        (window as any).pagehand.run('x', { secrets: { pin: '12' }, ui: false });
        return null;
      } catch (e) {
        return { name: (e as Error).name, code: (e as { code?: string }).code, message: (e as Error).message };
      }
    });
    expect(thrown).toEqual({
      name: 'PagehandRunError',
      code: 'invalid_secrets',
      message: expect.stringMatching(/^pagehand\.run: the secret "pin" must have at least 3 characters/),
    });
    await page.close();
  });
});

describe('init({ redact })', () => {
  it('masks a selector’s text and a pattern’s matches in the map, read and find, and in every request', async () => {
    const page = await openWithAgent(session, 'secrets/account.html', { early: true });
    await page.evaluate(() => (window as any).pagehand.init({ redact: ['.acct', '/[\\w.]+@[\\w.]+\\.test/'] }));
    const earlier = stack.requests().length;
    const seen: string[] = [];
    stack.setPolicy(
      sequence(
        (req) => (seen.push(latestMap(req)), call('read', {})),
        (req) => (seen.push(lastToolResults(req).join('\n')), call('find', { query: 'Account' })),
        (req) => (seen.push(lastToolResults(req).join('\n')), call('done', { summary: 'Read.' })),
      ),
    );
    const run = await runAgent(page, stack, 'What is on this page?');
    expect(await run.result).toMatchObject({ ok: true });
    expect(seen[0]).toContain('[redacted]');
    expect(seen[0]).toContain('Questions? Write to [redacted]');
    expect(seen[1]).toContain('[redacted]');
    for (const text of seen) {
      expect(text).not.toContain('DE89');
      expect(text).not.toContain('billing.team@');
    }
    for (const r of stack.requests().slice(earlier)) {
      const raw = JSON.stringify(r.body);
      expect(raw).not.toContain('DE89 3704');
      expect(raw).not.toContain('billing.team@example.test');
    }
    await page.close();
  }, 60_000);
});

describe('the runner: --secret and --schema', () => {
  const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
  const cli = (args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [CLI, ...args], {
        env: {
          ...process.env,
          CHROMIUM_PATH: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          PAGEHAND_TOKEN: '',
          PAGEHAND_TOKEN_FILE: '/nonexistent/pagehand-token',
          PAGEHAND_SECRET_CARD: '5500 0000 0000 0004',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      const bound = setTimeout(() => child.kill('SIGKILL'), 110_000);
      child.on('error', reject);
      child.on('close', (code) => (clearTimeout(bound), resolve({ code, stdout, stderr })));
    });
  /** The model: type the card, read its last digits from the page, answer as data. */
  const model = () => {
    const seen: string[] = [];
    const policy = sequence(
      (req) => call('type', { ref: refFor(latestMap(req), 'textbox', 'Card number'), text: '<secret:card>' }),
      (req) => {
        const map = latestMap(req);
        seen.push(map);
        const ending = /Card ends in (\d{4})/.exec(map)?.[1] ?? '?';
        return call('done', { summary: `The card ends in ${ending}.`, data: { ending } });
      },
    );
    return { seen, policy };
  };

  it('types the value from $PAGEHAND_SECRET_CARD, never sends it, and prints the answer as data (--json and human)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pagehand-runner-secret-'));
    try {
      await writeFile(
        join(dir, 'answer.json'),
        JSON.stringify({ type: 'object', properties: { ending: { type: 'string', pattern: '^\\d{4}$' } }, required: ['ending'] }),
      );
      const url = `${origin()}/fixtures/agent/secrets/account.html`;
      const common = [
        'run',
        '--url',
        url,
        '--proxy',
        stack.proxyUrl,
        '--token',
        stack.token,
        '--model',
        'gpt-test',
        '--secret',
        'card',
        '--schema',
        join(dir, 'answer.json'),
      ];

      const earlier = stack.requests().length;
      const json = model();
      stack.setPolicy(json.policy);
      const a = await cli([...common, '--json', 'Enter my card and tell me its last digits.']);
      expect(a.code, a.stderr).toBe(0);
      const result = a.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
        .find((e) => e.event === 'result');
      expect(result).toMatchObject({ ok: true, summary: 'The card ends in 0004.', data: { ending: '0004' } });
      // The page got the value (its own last-digits line), the model read only the placeholder.
      expect(json.seen[0]).toContain('Card ends in 0004');
      expect(json.seen[0]).toMatch(/textbox "Card number" value="<secret:card>"/);
      expect(a.stdout + a.stderr).not.toContain('5500 0000');

      const human = model();
      stack.setPolicy(human.policy);
      const b = await cli([...common, 'Enter my card and tell me its last digits.']);
      expect(b.code, b.stderr).toBe(0);
      expect(b.stdout).toContain('The card ends in 0004.\n{\n  "ending": "0004"\n}\n');
      expect(b.stdout + b.stderr).not.toContain('5500 0000');

      for (const r of stack.requests().slice(earlier)) expect(JSON.stringify(r.body)).not.toContain('5500 0000');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
