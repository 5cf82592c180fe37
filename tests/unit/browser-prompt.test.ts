/**
 * What the browser's own model is given and what its answer becomes (client/llm/browser-prompt.ts):
 * the schema of one action, the tools in words, its JSON as the proxy path's ChatReply, and a
 * step cut to its window (page text first, then the earlier steps).
 */
import { describe, expect, it } from 'vitest';
import { answerSchema, replyFromAnswer, toolLines, trimStep } from '../../client/llm/browser-prompt';
import { parseReply } from '../../client/agent/reply';
import { toolSpecs } from '../../client/agent/tools';

const tools = toolSpecs();
const S = '⟪page content 0123456789ab⟫';
const E = '⟪/page content 0123456789ab⟫';
const step = (mapLines: number): string =>
  [
    '# Task\nBuy socks',
    `# Earlier steps\n${S}\n1. click [3]: ok\n2. type [4]: ok\n${E}`,
    `# Last step's results\n${S}\nTyped.\n${E}`,
    `# Current page\n${S}\npage "Shop" https://shop.test/\n${Array.from({ length: mapLines }, (_, i) => `[${i + 1}]button "Item ${i + 1}"`).join('\n')}\n${E}`,
  ].join('\n\n');

describe('the schema of one action', () => {
  it('offers each tool once, by its exact name, with its own arguments, and the reasoning first', () => {
    const s = answerSchema(tools);
    const branches = s.properties!.action!.oneOf!;
    expect(branches.map((b) => b.properties!.tool!.const)).toEqual(tools.map((t) => t.function.name));
    const click = branches.find((b) => b.properties!.tool!.const === 'click')!;
    expect(click.properties!.arguments).toEqual(tools.find((t) => t.function.name === 'click')!.function.parameters);
    expect(click.required).toEqual(['tool', 'arguments']);
    expect(s.required).toEqual(['eval', 'memory', 'goal', 'action']);
  });

  it('describes the tools in words, required arguments plain and optional ones marked', () => {
    const lines = toolLines(tools);
    expect(lines).toMatch(/^- done \{summary: string, success\?: boolean \(false if only partly done\)\}: Finish/m);
    expect(lines.split('\n')).toHaveLength(tools.length);
  });
});

describe('the answer as the proxy path’s reply', () => {
  it('one tool call with its arguments, the reasoning as the lines the reply parser reads', () => {
    const reply = replyFromAnswer(
      JSON.stringify({ eval: 'ok', memory: 'two of three', goal: 'open the third', action: { tool: 'click', arguments: { ref: '7' } } }),
      { promptTokens: 10, completionTokens: 3 },
    );
    expect(reply.toolCalls).toEqual([{ id: 'call_0', name: 'click', arguments: '{"ref":"7"}' }]);
    expect(parseReply(reply)).toMatchObject({
      calls: [{ name: 'click', args: { ref: '7' } }],
      reasoning: { evaluation: 'ok', memory: 'two of three', nextGoal: 'open the third' },
    });
    expect(reply.usage).toEqual({ promptTokens: 10, completionTokens: 3 });
  });

  it('an answer that is not the JSON stays text (no call is made up)', () => {
    expect(replyFromAnswer('{"eval": "cut off', null)).toMatchObject({ content: '{"eval": "cut off', toolCalls: [] });
  });
});

describe('a step cut to the window', () => {
  it('keeps the map’s header and its first lines, says how many were left out, keeps the rest of the step', () => {
    const cut = trimStep(step(100), 0.2);
    expect(cut).toContain('page "Shop" https://shop.test/');
    expect(cut).toContain('[19]button "Item 19"');
    expect(cut).not.toContain('[21]button');
    expect(cut).toMatch(/\(81 more lines of this page left out to fit the browser's model; scroll or find to see them\)\n⟪\/page content 0123456789ab⟫$/);
    expect(cut).toContain('1. click [3]: ok');
  });

  it('at 0 the earlier steps go too; the last results and the task stay', () => {
    const cut = trimStep(step(10), 0);
    expect(cut).not.toContain('1. click [3]: ok');
    expect(cut).toContain("# Earlier steps\n(left out to fit the browser's model)\n\n# Last step's results");
    expect(cut).toContain('Typed.');
    expect(cut).toContain('# Task\nBuy socks');
  });
});
