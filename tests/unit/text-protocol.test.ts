import { describe, expect, it } from 'vitest';
import { callsFromReply, toTextRequest } from '../../server/chat/text-protocol';
import type { ToolDef } from '../../server/chat/types';

const tools: ToolDef[] = [
  { type: 'function', function: { name: 'click', description: 'Click.', parameters: { type: 'object', properties: { ref: { type: 'string' } } } } },
];

describe('the request in text', () => {
  it('moves the tools into the system message and removes them from the request', () => {
    const out = toTextRequest({ model: 'm', messages: [{ role: 'user', content: 'hi' }], tools, tool_choice: 'required', parallel_tool_calls: false });
    expect(out).not.toHaveProperty('tools');
    expect(out).not.toHaveProperty('tool_choice');
    expect(out).not.toHaveProperty('parallel_tool_calls');
    expect(out.messages[0]).toMatchObject({ role: 'system' });
    expect(out.messages[0]!.content).toContain('## click\nClick.\narguments: {"type":"object","properties":{"ref":{"type":"string"}}}');
    expect(out.messages[0]!.content).toContain('Every reply must call a tool.');
  });

  it('with tool_choice "none" describes no tools', () => {
    const out = toTextRequest({ model: 'm', messages: [{ role: 'user', content: 'hi' }], tools, tool_choice: 'none' });
    expect(out.messages).toEqual([{ role: 'user', content: 'hi' }]);
  });
});

describe('the reply read back', () => {
  it('turns the written call into a tool call and keeps the reasoning', () => {
    const r = callsFromReply('goal: next\n<tool_call>{"name": "click", "arguments": "{\\"ref\\": \\"2\\"}"}</tool_call>', tools);
    expect(r.content).toBe('goal: next');
    expect(r.toolCalls).toMatchObject([{ type: 'function', function: { name: 'click', arguments: '{"ref":"2"}' } }]);
    expect(r.toolCalls[0]!.id).toMatch(/^call_/);
  });

  it('leaves text that calls no known tool alone', () => {
    expect(callsFromReply('{"tool": "delete_everything", "arguments": {}}', tools)).toEqual({
      content: '{"tool": "delete_everything", "arguments": {}}',
      toolCalls: [],
    });
  });
});
