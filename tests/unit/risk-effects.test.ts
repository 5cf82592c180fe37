// @vitest-environment happy-dom
/**
 * Every tool says how its effect is judged, and the check fails closed: a tool without a
 * declaration does not load, a call whose effect cannot be read asks (as `unjudged`, never
 * allowed "always"), a navigate is judged as a link to where it goes, a chosen option by its
 * own words, and DOM reads go through the prototypes a page cannot shadow.
 */
import { describe, expect, it } from 'vitest';
import { ACTION_TOOLS, assertJudged } from '../../client/page/actions/args';
import { TOOLS } from '../../client/agent/tools';
import { classifyRisks } from '../../client/safety/risk';
import { confirmCall, type ConfirmHost } from '../../client/safety/confirm';
import type { Allowance, RunEvents } from '../../client/agent/public-types';
import { controlsOf, typeOf } from '../../client/page/dom/proto';
import type { TargetFacts } from '../../client/page/facts-types';

const here = 'https://shop.example/cart';

describe('each tool declares how its effect is judged', () => {
  it('every built-in tool has a judge, and the page actions that act are judged on something', () => {
    expect(() => assertJudged(TOOLS)).not.toThrow();
    const judges = Object.fromEntries(Object.entries(ACTION_TOOLS).map(([n, t]) => [n, t.judge]));
    expect(judges).toMatchObject({
      click: 'target',
      double_click: 'target',
      hover: 'target',
      right_click: 'target',
      press_key: 'key',
      type: 'typed',
      click_at: 'point',
      drag: 'drop',
      select_option: 'option',
      navigate: 'destination',
      scroll: 'none',
      read: 'fetch',
      wait: 'none',
    });
  });

  it('a table with a tool that declares nothing (or something unknown) does not load', () => {
    const { judge: _judge, ...bare } = ACTION_TOOLS.click;
    expect(() => assertJudged({ ...ACTION_TOOLS, click: bare as { judge?: unknown } })).toThrow(/"click" does not declare how its effect is judged/);
    expect(() => assertJudged({ swipe: { judge: 'maybe' } })).toThrow(/"swipe"/);
  });
});

describe('navigate is judged as a link to where it goes', () => {
  const nav = (url: string) => classifyRisks({ name: 'navigate', args: { url } }, undefined, here);
  it.each([
    ['/account/delete', 'deletion'],
    ['../delete?id=1', 'deletion'],
    ['/pay/invoice-7', 'payment'],
    ['/files/export.zip', 'download'],
    ['https://other.example/', 'leaving_site'],
  ])('%s asks as %s', (url, kind) => {
    expect(nav(url)[0]?.kind).toBe(kind);
  });
  it.each(['javascript:alert(1)', 'data:text/html,<p>x</p>', 'file:///etc/passwd'])('%s asks as unjudged', (url) => {
    expect(nav(url)).toEqual([expect.objectContaining({ kind: 'unjudged' })]);
  });
  it.each(['/orders', '/help', '#reviews', 'https://shop.example/checkout'])('%s does not ask', (url) => {
    expect(nav(url)).toEqual([]);
  });
});

describe('select_option is judged by the chosen option', () => {
  const option = (name: string, extra: Partial<TargetFacts> = {}): TargetFacts => ({ role: 'option', name, tag: 'option', via: 'click', ...extra });
  it('an option whose words delete asks; its own text counts beside a label that says otherwise', () => {
    const call = { name: 'select_option', args: { ref: '2', option: ['Delete account'] } };
    expect(classifyRisks(call, option('Delete account'), here)[0]).toMatchObject({
      kind: 'deletion',
      reason: expect.stringMatching(/^Choosing option "Delete account"/),
    });
    expect(classifyRisks(call, option('Keep', { words: ['Delete account'] }), here)[0]?.kind).toBe('deletion');
    expect(classifyRisks(call, option('France'), here)).toEqual([]);
    expect(classifyRisks(call, undefined, here)).toEqual([expect.objectContaining({ kind: 'unjudged' })]);
  });
});

describe('what pagehand could not judge is asked about one call at a time', () => {
  const host = (allowed: Allowance[], answer: { ok: boolean; always?: boolean }): ConfirmHost & { asked: number } => {
    const h = {
      allowed,
      asked: 0,
      signal: new AbortController().signal,
      confirmFn: () => undefined,
      emitter: {
        count: () => 1,
        emit: (_e: 'confirm', p: RunEvents['confirm']) => {
          h.asked++;
          p.respond(answer.ok, answer.always);
        },
      },
    };
    return h;
  };
  const risk = { kind: 'unjudged' as const, reason: 'pagehand could not tell what this does.' };
  const planned = { name: 'click', args: { ref: '3' } };

  it('an "always" given (or forged into a saved run) does not skip the question, and answering "always" records nothing', async () => {
    const forged = host(['unjudged'], { ok: false });
    expect(await confirmCall(forged, [risk], planned, undefined, undefined)).toMatch(/did not allow/);
    expect(forged.asked).toBe(1);
    const always = host([], { ok: true, always: true });
    expect(await confirmCall(always, [risk], planned, undefined, undefined)).toBe(true);
    expect(always.allowed).toEqual([]);
  });
});

describe('DOM reads through the prototypes', () => {
  it("a form's controls and a button's type, whatever the page put on the instances", () => {
    document.body.innerHTML = '<form><input name="q" value="x"><button id="b" type="submit">Go</button></form>';
    const form = document.querySelector('form')!;
    const b = document.getElementById('b')!;
    Object.defineProperty(form, 'elements', { get: () => ({ length: 0 }) });
    Object.defineProperty(b, 'type', { get: () => 'button' });
    expect(controlsOf(form).map((e) => e.localName)).toEqual(['input', 'button']);
    expect(typeOf(b)).toBe('submit');
  });
});
