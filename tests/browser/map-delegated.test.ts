/**
 * Click handlers a framework attaches by delegation (the listener on the root, the handler kept
 * on the node): React 19 and 18 props, Vue 3 invokers, Svelte 5 / Solid delegated properties.
 * Plain text with such a handler is a target in the map and in find, with the bundle loaded at
 * document start or after load, and clicking it runs the handler; text without one is not.
 */
import { describe, expect, it } from 'vitest';
import { act } from './actions-helpers';
import { mapBody, open, useSession } from './harness';

const s = useSession();

const refIn = (body: string[], name: string): string => {
  const line = body.find((l) => l.includes(`clickable "${name}"`));
  if (!line) throw new Error(`no clickable "${name}" in:\n${body.join('\n')}`);
  return /\[(\d+)\]/.exec(line)![1]!;
};

const cases = [
  {
    fixture: 'actions/react-delegated.html',
    targets: ['Mark as read', 'Archive', 'urgent'],
    plain: ['Quarterly report', 'plain tag'],
    click: 'Mark as read',
    logged: 'read report',
  },
  {
    fixture: 'actions/react18-delegated.html',
    targets: ['Mark as read', 'Archive', 'urgent'],
    plain: ['Quarterly report', 'plain tag'],
    click: 'Archive',
    logged: 'archive lunch',
  },
  { fixture: 'actions/vue-delegated.html', targets: ['Done'], plain: ['Pay rent', 'Plain note'], click: 'Done', logged: 'done Pay rent' },
  { fixture: 'actions/delegated-props.html', targets: ['Star', 'Pin'], plain: ['Photo 1', 'Plain words'], click: 'Pin', logged: 'pin' },
];

describe('handlers kept on the node by a framework', () => {
  for (const c of cases) {
    for (const early of [false, true]) {
      it(`${c.fixture}, bundle ${early ? 'at document start' : 'after load'}: targets in map and find, and clickable`, async () => {
        const page = await open(s, c.fixture, { early });
        await page.waitForSelector('#state');
        const body = await mapBody(page);
        for (const t of c.targets) expect(body.filter((l) => l.includes(`clickable "${t}"`)).length, `${t} in\n${body.join('\n')}`).toBeGreaterThan(0);
        for (const t of c.plain)
          expect(
            body.some((l) => l.includes(`"${t}"`)),
            `${t} in\n${body.join('\n')}`,
          ).toBe(false);
        const found = await page.evaluate((q) => (window as any).pagehand.find(q).text, c.click);
        expect(found).toMatch(new RegExp(`\\[\\d+\\]clickable "${c.click}"`));
        const r = await act(page, 'click', { ref: refIn(body, c.click) });
        expect(r.ok, r.message).toBe(true);
        const state = await page.textContent('#state');
        expect(JSON.parse(state ?? '[]')).toContain(c.logged);
        await page.close();
      });
    }
  }
});
