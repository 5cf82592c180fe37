/** Assembling a ChatReply from Chat Completions chunks and objects (client/llm/reply.ts). */
import { describe, expect, it } from 'vitest';
import { applyChunk, assistantMessage, newReplyState, replyFromCompletion, replyOf } from '../../client/llm/reply';

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta, finish_reason: finish }],
});

describe('applyChunk / replyOf', () => {
  it('joins content pieces and returns each new piece', () => {
    const s = newReplyState();
    expect(applyChunk(s, chunk({ role: 'assistant', content: '' }))).toBe('');
    expect(applyChunk(s, chunk({ content: 'Hel' }))).toBe('Hel');
    expect(applyChunk(s, chunk({ content: 'lo' }))).toBe('lo');
    applyChunk(s, chunk({}, 'stop'));
    applyChunk(s, { choices: [], usage: { prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 } });
    expect(replyOf(s)).toEqual({ content: 'Hello', toolCalls: [], finishReason: 'stop', usage: { promptTokens: 10, completionTokens: 3 } });
  });

  it('assembles tool calls by index: id and name first, arguments in pieces, interleaved', () => {
    const s = newReplyState();
    applyChunk(s, chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'click', arguments: '' } }] }));
    applyChunk(s, chunk({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'type', arguments: '{"ref":' } }] }));
    applyChunk(s, chunk({ tool_calls: [{ index: 0, function: { arguments: '{"ref":' } }] }));
    applyChunk(s, chunk({ tool_calls: [{ index: 0, function: { arguments: '"3"}' } }] }));
    applyChunk(s, chunk({ tool_calls: [{ index: 1, function: { arguments: '"4","text":"hi"}' } }] }));
    applyChunk(s, chunk({}, 'tool_calls'));
    const r = replyOf(s);
    expect(r.finishReason).toBe('tool_calls');
    expect(r.toolCalls).toEqual([
      { id: 'call_a', name: 'click', arguments: '{"ref":"3"}' },
      { id: 'call_b', name: 'type', arguments: '{"ref":"4","text":"hi"}' },
    ]);
  });

  it('orders calls by index even when a later index arrives first', () => {
    const s = newReplyState();
    applyChunk(s, chunk({ tool_calls: [{ index: 1, id: 'b', function: { name: 'second', arguments: '{}' } }] }));
    applyChunk(s, chunk({ tool_calls: [{ index: 0, id: 'a', function: { name: 'first', arguments: '{}' } }] }));
    expect(replyOf(s).toolCalls.map((c) => c.name)).toEqual(['first', 'second']);
  });

  it('copes with servers that omit index: a new id starts a call, no id continues it', () => {
    const s = newReplyState();
    applyChunk(s, chunk({ tool_calls: [{ id: 'x1', function: { name: 'click', arguments: '{"ref"' } }] }));
    applyChunk(s, chunk({ tool_calls: [{ function: { arguments: ':"1"}' } }] }));
    applyChunk(s, chunk({ tool_calls: [{ id: 'x2', function: { name: 'done', arguments: '{}' } }] }));
    expect(replyOf(s).toolCalls).toEqual([
      { id: 'x1', name: 'click', arguments: '{"ref":"1"}' },
      { id: 'x2', name: 'done', arguments: '{}' },
    ]);
  });

  it('gives an id to a call that came without one (the next turn answers by id)', () => {
    const s = newReplyState();
    applyChunk(s, chunk({ tool_calls: [{ index: 0, function: { name: 'read', arguments: '{}' } }] }));
    expect(replyOf(s).toolCalls[0]!.id).toBe('call_0');
  });

  it("keeps a call's extra_content (Gemini's thought signature)", () => {
    const s = newReplyState();
    const extra = { google: { thought_signature: 'c2ln' } };
    applyChunk(s, chunk({ tool_calls: [{ index: 0, id: 'c', function: { name: 'click', arguments: '{}' }, extra_content: extra }] }));
    expect(replyOf(s).toolCalls[0]!.extra_content).toEqual(extra);
  });

  it('ignores other choices, junk and chunks without choices', () => {
    const s = newReplyState();
    applyChunk(s, { choices: [{ index: 1, delta: { content: 'other' }, finish_reason: null }] });
    applyChunk(s, null);
    applyChunk(s, 'text');
    applyChunk(s, { choices: 'no' });
    applyChunk(s, chunk({ content: 'mine' }));
    expect(replyOf(s)).toEqual({ content: 'mine', toolCalls: [], finishReason: null, usage: null });
  });
});

describe('replyFromCompletion', () => {
  it('reads a chat.completion object', () => {
    const r = replyFromCompletion({
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'done', arguments: '{"summary":"s"}' } }] },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 5, completion_tokens: 2 },
    });
    expect(r).toEqual({
      content: '',
      toolCalls: [{ id: 'c1', name: 'done', arguments: '{"summary":"s"}' }],
      finishReason: 'tool_calls',
      usage: { promptTokens: 5, completionTokens: 2 },
    });
  });
  it('returns null for anything else', () => {
    expect(replyFromCompletion({ error: { code: 'x', message: 'y' } })).toBeNull();
    expect(replyFromCompletion({ choices: [] })).toBeNull();
    expect(replyFromCompletion('nope')).toBeNull();
  });
});

describe('assistantMessage', () => {
  it('turns a reply into the history entry, keeping extra_content', () => {
    const extra = { google: { thought_signature: 'c2ln' } };
    expect(
      assistantMessage({
        content: '',
        toolCalls: [{ id: 'c', name: 'click', arguments: '{"ref":"1"}', extra_content: extra }],
        finishReason: 'tool_calls',
        usage: null,
      }),
    ).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c', type: 'function', function: { name: 'click', arguments: '{"ref":"1"}' }, extra_content: extra }],
    });
    expect(assistantMessage({ content: 'hi', toolCalls: [], finishReason: 'stop', usage: null })).toEqual({ role: 'assistant', content: 'hi' });
  });
});
