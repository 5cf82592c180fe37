import { describe, expect, it } from 'vitest';
import { matchesModel, readsImages } from '../../client/llm/models';
import { callsKey, newGuardState, pageKey, recordOutcome, recordStep, recordTextOnly } from '../../client/agent/guards';

describe('loop detection', () => {
  it('warns on the third identical action on an unchanged page, then stops', () => {
    const g = newGuardState();
    const k = callsKey([{ name: 'click', args: { ref: '4' } }]);
    const p = pageKey('[4]button "Next"');
    expect(recordStep(g, k, p, 'click [4]').kind).toBe('ok');
    expect(recordStep(g, k, p, 'click [4]').kind).toBe('ok');
    const warn = recordStep(g, k, p, 'click [4]');
    expect(warn).toMatchObject({ kind: 'warn' });
    expect(recordStep(g, k, p, 'click [4]').kind).toBe('ok'); // the count starts again after a warning
    recordStep(g, k, p, 'click [4]');
    expect(recordStep(g, k, p, 'click [4]')).toMatchObject({ kind: 'stop', reason: 'loop' });
  });

  it('does not count the same action on a page that changed', () => {
    const g = newGuardState();
    const k = callsKey([{ name: 'scroll', args: { direction: 'down' } }]);
    for (let i = 0; i < 6; i++) expect(recordStep(g, k, pageKey(`list at ${i}`), 'scroll').kind).toBe('ok');
  });

  it('detects A-B-A-B', () => {
    const g = newGuardState();
    const a = callsKey([{ name: 'click', args: { ref: '1' } }]);
    const b = callsKey([{ name: 'click', args: { ref: '2' } }]);
    const verdicts = [a, b, a, b].map((k, i) => recordStep(g, k, pageKey(i % 2 ? 'page B' : 'page A'), 'x').kind);
    expect(verdicts).toEqual(['ok', 'ok', 'ok', 'warn']);
  });

  it('ignores new-ref marks when comparing pages, and argument order in calls', () => {
    expect(pageKey('*[5]button "Go"')).toBe(pageKey('[5]button "Go"'));
    expect(callsKey([{ name: 'type', args: { ref: '1', text: 'a' } }])).toBe(callsKey([{ name: 'type', args: { text: 'a', ref: '1' } }]));
  });
});

describe('failures and text-only replies', () => {
  it('backs off from the third failed step and stops at the fifth; a success resets', () => {
    const g = newGuardState();
    expect(recordOutcome(g, true).kind).toBe('ok');
    expect(recordOutcome(g, true).kind).toBe('ok');
    expect(recordOutcome(g, true)).toMatchObject({ kind: 'backoff', ms: 1000 });
    expect(recordOutcome(g, true)).toMatchObject({ kind: 'backoff', ms: 2000 });
    expect(recordOutcome(g, true)).toMatchObject({ kind: 'stop', reason: 'errors' });
    const h = newGuardState();
    recordOutcome(h, true);
    recordOutcome(h, true);
    recordOutcome(h, false);
    expect(recordOutcome(h, true).kind).toBe('ok');
  });

  it('nudges after text-only replies and stops at the third in a row', () => {
    const g = newGuardState();
    expect(recordTextOnly(g, true).kind).toBe('warn');
    expect(recordTextOnly(g, true)).toMatchObject({ kind: 'warn', note: expect.stringMatching(/must call a tool/) });
    expect(recordTextOnly(g, true)).toMatchObject({ kind: 'stop', reason: 'no_tool_call' });
  });
});

describe('vision model lists from the proxy', () => {
  it('match exact names and prefixes ending in *', () => {
    expect(readsImages(['gemini-*'], 'gemini-test-flash')).toBe(true);
    expect(readsImages(['gpt-4o*'], 'gpt-test')).toBe(false);
    expect(readsImages(true, 'x')).toBe(true);
    expect(matchesModel('gemini-2.5-flash', 'gemini-2.5-flash')).toBe(true);
    expect(matchesModel('gpt-4o*', 'gpt-4o-mini')).toBe(true);
    expect(matchesModel('*', 'anything')).toBe(true);
    expect(matchesModel('gpt-4o*', 'gpt-4.1')).toBe(false);
    expect(matchesModel('gpt-4o', 'gpt-4o-mini')).toBe(false);
  });
});
