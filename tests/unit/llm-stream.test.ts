/** Reading the proxy's SSE body into a reply (client/llm/stream.ts), from hand-made byte streams. */
import { describe, expect, it } from 'vitest';
import { readReplyStream } from '../../client/llm/stream';
import type { ChatDelta } from '../../client/llm/wire';

const enc = new TextEncoder();

/** A body delivering `text` in the given byte-sized slices (splitting lines and UTF-8 sequences). */
function body(text: string, slice = 7, opts: { error?: boolean } = {}): ReadableStream<Uint8Array> {
  const bytes = enc.encode(text);
  let at = 0;
  return new ReadableStream({
    pull(c) {
      if (at >= bytes.length) return opts.error ? c.error(new TypeError('terminated')) : c.close();
      c.enqueue(bytes.slice(at, (at += slice)));
    },
  });
}

const ev = (o: unknown) => `data: ${JSON.stringify(o)}\n\n`;
const delta = (d: Record<string, unknown>, finish: string | null = null) => ev({ choices: [{ index: 0, delta: d, finish_reason: finish }] });
const DONE = 'data: [DONE]\n\n';

describe('readReplyStream', () => {
  it('assembles content across arbitrary byte boundaries (multi-byte text too) and reports deltas', async () => {
    const text =
      delta({ role: 'assistant', content: '' }) +
      delta({ content: 'Grüße ' }) +
      delta({ content: '→ 世界' }) +
      delta({}, 'stop') +
      ev({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 2 } }) +
      DONE;
    for (const slice of [1, 3, 7, 1000]) {
      const deltas: ChatDelta[] = [];
      const reply = await readReplyStream(body(text, slice), (d) => deltas.push(d));
      expect(reply).toEqual({ content: 'Grüße → 世界', toolCalls: [], finishReason: 'stop', usage: { promptTokens: 3, completionTokens: 2 } });
      expect(deltas.map((d) => d.content)).toEqual(['Grüße ', '→ 世界']);
    }
  });

  it('reports a delta when a tool call begins, with the count', async () => {
    const deltas: ChatDelta[] = [];
    const text =
      delta({ tool_calls: [{ index: 0, id: 'a', function: { name: 'click', arguments: '{"ref":' } }] }) +
      delta({ tool_calls: [{ index: 0, function: { arguments: '"1"}' } }] }) +
      delta({ tool_calls: [{ index: 1, id: 'b', function: { name: 'done', arguments: '{}' } }] }) +
      delta({}, 'tool_calls') +
      DONE;
    const reply = await readReplyStream(body(text), (d) => deltas.push(d));
    expect(reply.toolCalls.map((c) => c.arguments)).toEqual(['{"ref":"1"}', '{}']);
    expect(deltas.map((d) => d.toolCalls)).toEqual([1, 2]);
  });

  it('stops at [DONE] and ignores anything after it', async () => {
    const reply = await readReplyStream(body(delta({ content: 'a' }, 'stop') + DONE + delta({ content: 'late' })));
    expect(reply.content).toBe('a');
  });

  it("throws the proxy's error event as a retryable ModelError", async () => {
    const err = { error: { code: 'upstream_stream_error', message: 'The openai upstream stream broke off before the end.' } };
    await expect(readReplyStream(body(delta({ content: 'part' }) + ev(err)))).rejects.toMatchObject({
      name: 'ModelError',
      code: 'upstream_stream_error',
      message: err.error.message,
      retryable: true,
    });
  });

  it('a body that ends before a finish reason or [DONE] is a cut stream', async () => {
    await expect(readReplyStream(body(delta({ content: 'half' })))).rejects.toMatchObject({ code: 'stream_cut', retryable: true });
  });

  it('a body that errors mid-way is a cut stream', async () => {
    await expect(readReplyStream(body(delta({ content: 'half' }), 5, { error: true }))).rejects.toMatchObject({ code: 'stream_cut', retryable: true });
  });

  it('accepts a finished reply without [DONE] (some compatible servers omit it), even without a final blank line', async () => {
    const reply = await readReplyStream(
      body(delta({ content: 'x' }) + `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'length' }] })}`),
    );
    expect(reply).toMatchObject({ content: 'x', finishReason: 'length' });
  });

  it('an event that is not JSON is a bad response, not retried', async () => {
    await expect(readReplyStream(body('data: {oops\n\n'))).rejects.toMatchObject({ code: 'bad_response', retryable: false });
  });

  it('ignores comments and named SSE fields the parser handles', async () => {
    const reply = await readReplyStream(body(': keep-alive\n\nid: 1\nretry: 100\n' + delta({ content: 'ok' }, 'stop') + DONE));
    expect(reply.content).toBe('ok');
  });

  it('a throwing onDelta does not lose the reply', async () => {
    const reply = await readReplyStream(body(delta({ content: 'fine' }, 'stop') + DONE), () => {
      throw new Error('overlay bug');
    });
    expect(reply.content).toBe('fine');
  });
});
