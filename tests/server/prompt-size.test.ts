/** The prompt-size estimate the proxy caps requests by (characters / 4, and a fixed cost an image). */
import { describe, expect, it } from 'vitest';
import { estimatePromptTokens, IMAGE_TOKENS, imageCount } from '../../server/chat/prompt-size';

describe('estimatePromptTokens', () => {
  it('counts the text of every role, tool calls, tool results and tool definitions, and each image at a fixed cost', () => {
    expect(estimatePromptTokens({ messages: [{ role: 'user', content: 'x'.repeat(400) }] })).toBe(100);
    const tools = [{ type: 'function' as const, function: { name: 'click', description: 'd'.repeat(100) } }];
    const req = {
      messages: [
        { role: 'system' as const, content: 'a'.repeat(40) },
        {
          role: 'user' as const,
          content: [
            { type: 'text' as const, text: 'b'.repeat(40) },
            { type: 'image_url' as const, image_url: { url: `data:image/png;base64,${'A'.repeat(4000)}` } },
          ],
        },
        {
          role: 'assistant' as const,
          content: null,
          tool_calls: [{ id: 'c', type: 'function' as const, function: { name: 'click', arguments: '{"ref":12}' } }],
        },
        { role: 'tool' as const, tool_call_id: 'c', content: 'c'.repeat(40) },
      ],
      tools,
    };
    const chars = 40 + 40 + 'click'.length + '{"ref":12}'.length + 40 + JSON.stringify(tools).length;
    // The image counts IMAGE_TOKENS whatever its bytes; its data URL is not text.
    expect(imageCount(req)).toBe(1);
    expect(estimatePromptTokens(req)).toBe(Math.ceil(chars / 4) + IMAGE_TOKENS);
  });
});
