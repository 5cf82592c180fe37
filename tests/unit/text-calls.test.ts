import { describe, expect, it } from 'vitest';
import { callsInText, parseLooseJson, toolNames } from '../../common/text-calls';

const names = toolNames(['click', 'type', 'done', 'select_option', 'addToCart']);
const read = (text: string) => callsInText(text, names);

describe('calls written as text', () => {
  it('reads a fenced block and keeps the prose around it', () => {
    const r = read('goal: search\n```json\n{"tool": "type", "arguments": {"ref": "2", "text": "ernesto"}}\n```\nThat should do it.');
    expect(r.calls).toEqual([{ name: 'type', args: { ref: '2', text: 'ernesto' } }]);
    expect(r.rest).toBe('goal: search\n\nThat should do it.');
  });

  it('reads a bare object inside prose', () => {
    const r = read('I will click Next. {"tool": "click", "arguments": {"ref": "7"}} Done for now.');
    expect(r.calls).toEqual([{ name: 'click', args: { ref: '7' } }]);
    expect(r.rest).toBe('I will click Next.  Done for now.');
  });

  it('reads <tool_call> tags (Qwen and Hermes templates)', () => {
    const r = read('<tool_call>\n{"name": "click", "arguments": {"ref": "3"}}\n</tool_call>');
    expect(r.calls).toEqual([{ name: 'click', args: { ref: '3' } }]);
    expect(r.rest).toBe('');
  });

  it('repairs a trailing comma, a missing comma and single quotes', () => {
    expect(read('{"tool": "click", "arguments": {"ref": "7",},}').calls).toEqual([{ name: 'click', args: { ref: '7' } }]);
    expect(read('{"tool": "type" "arguments": {"ref": "2" "text": "a, b"}}').calls).toEqual([{ name: 'type', args: { ref: '2', text: 'a, b' } }]);
    expect(read("{'tool': 'done', 'arguments': {'summary': 'He said \"hi\", it\\'s fine'}}").calls).toEqual([
      { name: 'done', args: { summary: 'He said "hi", it\'s fine' } },
    ]);
  });

  it('leaves strings alone while repairing', () => {
    expect(parseLooseJson('{"text": "a, } ]", "n": 1,}')).toEqual({ text: 'a, } ]', n: 1 });
    expect(parseLooseJson('[1 2 true null]')).toEqual([1, 2, true, null]);
  });

  it('reads arguments given as a JSON string', () => {
    expect(read('{"tool": "click", "arguments": "{\\"ref\\": \\"9\\"}"}').calls).toEqual([{ name: 'click', args: { ref: '9' } }]);
  });

  it('reads several calls: an array, or one block after another', () => {
    const arr = read('[{"tool": "type", "arguments": {"ref": "1", "text": "Ada"}}, {"tool": "click", "arguments": {"ref": "2"}}]');
    expect(arr.calls.map((c) => c.name)).toEqual(['type', 'click']);
    const two = read('```json\n{"tool": "type", "arguments": {"ref": "1", "text": "Ada"}}\n```\n```json\n{"tool": "click", "arguments": {"ref": "2"}}\n```');
    expect(two.calls.map((c) => c.name)).toEqual(['type', 'click']);
  });

  it('gives each tool its own spelling, and ignores JSON that names no tool', () => {
    expect(read('{"tool": "ADDTOCART", "arguments": {"sku": "x"}}').calls).toEqual([{ name: 'addToCart', args: { sku: 'x' } }]);
    const r = read('The cart holds {"items": 2} things.');
    expect(r.calls).toEqual([]);
    expect(r.rest).toBe('The cart holds {"items": 2} things.');
    expect(read('```json\nnot json at all\n```').calls).toEqual([]);
  });
});
