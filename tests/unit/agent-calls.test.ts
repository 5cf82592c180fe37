import { describe, expect, it } from 'vitest';
import { callArgs, callLabel, callRef, normaliseCall, type Call, type CallContext } from '../../client/agent/calls';
import { parseReply } from '../../client/agent/reply';
import { classifyRisks } from '../../client/safety/risk';
import { toolSpecs, TOOLS } from '../../client/agent/tools';
import type { CustomTool } from '../../client/agent/public-types';
import { ACTION_TOOLS, parseCall } from '../../client/page/actions/args';

const addToCart: CustomTool = { name: 'addToCart', description: 'Add to the cart.', handler: () => 'ok' };
const ctx = (o: Partial<CallContext> = {}): CallContext => ({
  siteTools: new Map([[addToCart.name, addToCart]]),
  offered: ['click', 'type', 'find', 'done'],
  ...o,
});
const one = (name: string, args: Record<string, unknown>, o?: Partial<CallContext>): Call => normaliseCall({ name, args }, ctx(o));

describe('calls in canonical form', () => {
  it('types the arguments once: refs parsed, "true" read as true, defaults applied', () => {
    const c = one('type', { ref: '*[12]', text: 'ernesto', submit: 'true' });
    expect(c.kind).toBe('page');
    if (c.kind !== 'page') return;
    expect(c.action).toEqual({ name: 'type', args: { ref: '12', text: 'ernesto', replace: true, submit: true } });
    // What the model wrote stays on `planned`, for the events.
    expect(c.planned).toEqual({ name: 'type', args: { ref: '*[12]', text: 'ernesto', submit: 'true' } });
    expect(callRef(c)).toBe('12');
    // A canonical call is not parsed again: the parser hands back the same object.
    const again = parseCall(c.action);
    expect(again.ok && again.call).toBe(c.action);
  });

  it('labels a call by what will run, in the order the model gave its arguments', () => {
    expect(callLabel(one('type', { ref: 3, text: 'ernesto', submit: 'true' }))).toBe('type [3] "ernesto" +Enter');
    expect(callLabel(one('type', { ref: '3', text: 'x', submit: 'false' }))).toBe('type [3] "x"');
    expect(callLabel(one('scroll', { direction: 'down', pages: 3 }))).toBe('scroll direction="down" pages=3');
    expect(callLabel(one('select_option', { ref: '4', value: 'France' }))).toBe('select_option [4] "France"');
  });

  it('done, fail, ask_user and find are typed too', () => {
    expect(one('done', { summary: '  Found it. ', success: 'false' })).toMatchObject({ kind: 'done', args: { summary: 'Found it.', success: false } });
    expect(one('done', { text: 'All done' })).toMatchObject({ kind: 'done', args: { summary: 'All done', success: true } });
    expect(one('fail', { reason: 'No such page' })).toMatchObject({ kind: 'fail', args: { reason: 'No such page' } });
    expect(one('ask_user', { question: ' Which size? ' })).toMatchObject({ kind: 'ask_user', args: { question: 'Which size?' } });
    expect(one('find', { query: ' Quantum ' })).toMatchObject({ kind: 'find', args: { query: 'Quantum' } });
  });

  it("bad arguments become that tool's failed result; unknown, refused and unreadable calls are not run", () => {
    expect(one('find', { query: '  ' })).toMatchObject({ kind: 'bad_args', runs: 'find', message: 'find needs "query": words to look for.' });
    const bad = one('type', { ref: '7' });
    expect(bad).toMatchObject({ kind: 'bad_args', runs: 'page', ref: '7', message: expect.stringMatching(/type needs "text"/) });
    expect(one('tap', { ref: '1' })).toMatchObject({ kind: 'rejected', message: 'Unknown tool "tap". Tools: click, type, find, done.' });
    expect(one('type', { ref: '1', text: 'x' }, { allowedActions: ['click'] })).toMatchObject({
      kind: 'rejected',
      message: expect.stringMatching(/^"type" is not allowed on this site/),
    });
    // find is always offered, whatever allowedActions says.
    expect(one('find', { query: 'x' }, { allowedActions: ['click'] }).kind).toBe('find');
    const [unreadable] = parseReply({ content: '', toolCalls: [{ id: 'a', name: 'click', arguments: '{ref: 3' }] }).calls;
    expect(normaliseCall(unreadable!, ctx())).toMatchObject({
      kind: 'rejected',
      message: expect.stringMatching(/^Not run: the arguments of click were not valid JSON/),
    });
  });

  it("a site's tool gets its arguments as written", () => {
    const c = one('addToCart', { sku: 'p2', qty: '2' });
    expect(c).toMatchObject({ kind: 'site', tool: addToCart, args: { sku: 'p2', qty: '2' } });
    expect(callArgs(c)).toEqual({ sku: 'p2', qty: '2' });
  });

  it('the risk check reads the canonical call: the same verdict as for the raw one', () => {
    const facts = {
      role: 'textbox',
      name: 'Reason',
      tag: 'input',
      submits: { personal: [], search: false, action: 'https://shop.example/account/delete', method: 'post' },
    };
    const raw = { name: 'type', args: { ref: '1', text: 'bye', submit: 'true' } };
    const c = normaliseCall(raw, ctx());
    if (c.kind !== 'page') throw new Error('not a page call');
    expect(classifyRisks(c.action, facts, 'https://shop.example/')).toEqual(classifyRisks(raw, facts, 'https://shop.example/'));
    expect(classifyRisks(c.action, facts, 'https://shop.example/')[0]?.kind).toBe('deletion');
  });
});

describe('one tool table', () => {
  it("the schemas the model gets are the page table's entries, plus the loop's own tools", () => {
    const specs = toolSpecs();
    for (const [name, t] of Object.entries(ACTION_TOOLS)) {
      const spec = specs.find((s) => s.function.name === name)!;
      expect(spec.function.description).toBe(t.description);
      expect(spec.function.parameters?.properties).toEqual(t.properties ?? {});
    }
    expect(Object.keys(TOOLS)).toEqual([...Object.keys(ACTION_TOOLS), 'find', 'done', 'fail', 'ask_user']);
  });
});
