import { describe, expect, it } from 'vitest';
import { parseReply, readReasoningLines } from '../../client/agent/reply';
import { TOOLS } from '../../client/agent/tools';
import { callsFromJson as callsFrom, jsonBlocks, toolNames } from '../../common/text-calls';

const callsFromJson = (v: unknown) => callsFrom(v, toolNames(Object.keys(TOOLS)));

const reply = (content: string, toolCalls: Array<{ name: string; arguments: string }> = []) =>
  parseReply({ content, toolCalls: toolCalls.map((t, i) => ({ id: `c${i}`, ...t })) });

describe('reasoning lines', () => {
  it('reads eval / memory / goal lines in the forms models write them', () => {
    const r = readReasoningLines('eval: the search worked\n**Memory**: 3 emails found\nNext goal - open the first one');
    expect(r.reasoning).toEqual({ evaluation: 'the search worked', memory: '3 emails found', nextGoal: 'open the first one' });
    expect(r.rest).toBe('');
  });

  it('continues a label over following lines and keeps other text apart', () => {
    const r = readReasoningLines('Evaluation of the previous goal: ok\nmemory: a\nb\n\nThe total is $4.');
    expect(r.reasoning.memory).toBe('a b');
    expect(r.rest).toBe('The total is $4.');
  });

  it('does not take a hyphenated word for a label', () => {
    expect(readReasoningLines('Memory-efficient mode is on').reasoning).toEqual({});
  });
});

describe('native tool calls', () => {
  it('parses arguments and keeps prose as the goal', () => {
    const p = reply('I will search for Ernesto.', [{ name: 'type', arguments: '{"ref":"2","text":"ernesto","submit":true}' }]);
    expect(p.calls).toEqual([{ name: 'type', args: { ref: '2', text: 'ernesto', submit: true } }]);
    expect(p.reasoning.nextGoal).toBe('I will search for Ernesto.');
    expect(p.fromText).toBe(false);
  });

  it('marks malformed arguments instead of guessing', () => {
    const p = reply('', [{ name: 'click', arguments: '{"ref": 12' }]);
    expect(p.calls[0]!.error).toMatch(/not valid JSON/);
    expect(reply('', [{ name: 'click', arguments: '[1]' }]).calls[0]!.error).toMatch(/must be a JSON object/);
  });

  it('takes several calls in order and lower-cases names', () => {
    const p = reply('', [
      { name: 'Click', arguments: '{"ref":"1"}' },
      { name: 'done', arguments: '{"summary":"ok"}' },
    ]);
    expect(p.calls.map((c) => c.name)).toEqual(['click', 'done']);
  });
});

describe('calls written as JSON in the text', () => {
  it('accepts a fenced block with name/arguments', () => {
    const p = reply('eval: fine\n```json\n{"name": "click", "arguments": {"ref": "7"}}\n```');
    expect(p.calls).toEqual([{ name: 'click', args: { ref: '7' } }]);
    expect(p.fromText).toBe(true);
    expect(p.reasoning.evaluation).toBe('fine');
  });

  it('accepts bare JSON in the shapes models use', () => {
    expect(callsFromJson({ tool: 'scroll', args: { direction: 'down' } })).toEqual([{ name: 'scroll', args: { direction: 'down' } }]);
    expect(callsFromJson({ action: 'click', ref: '3' })).toEqual([{ name: 'click', args: { ref: '3' } }]);
    expect(callsFromJson({ click: { ref: '3' } })).toEqual([{ name: 'click', args: { ref: '3' } }]);
    expect(callsFromJson({ function: { name: 'done', arguments: '{"summary":"x"}' } })).toEqual([{ name: 'done', args: { summary: 'x' } }]);
    expect(callsFromJson({ current_state: {}, action: [{ click: { ref: '1' } }, { done: { summary: 's' } }] })).toHaveLength(2);
  });

  it('reads browser-use style reasoning keys from the JSON', () => {
    const p = reply('{"current_state": {"evaluation_previous_goal": "ok", "memory": "m", "next_goal": "g"}, "action": [{"wait": {"seconds": 1}}]}');
    expect(p.reasoning).toEqual({ evaluation: 'ok', memory: 'm', nextGoal: 'g' });
    expect(p.calls).toEqual([{ name: 'wait', args: { seconds: 1 } }]);
  });

  it('treats JSON that names no tool, and plain prose, as text for the user', () => {
    const p = reply('The cart holds {"items": 2} things. The total is $42.50.');
    expect(p.calls).toEqual([]);
    expect(p.text).toContain('$42.50');
    expect(jsonBlocks('no json here')).toEqual([]);
  });
});
