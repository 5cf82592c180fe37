/** The step's request within its budget: a screenshot counts as the proxy counts it. */
import { describe, expect, it } from 'vitest';
import { IMAGE_TOKENS } from '../../common/image-tokens';
import type { SavedRun } from '../../client/agent/persist';
import { buildRequest, planPrompt } from '../../client/agent/request';
import { newGuardState } from '../../client/agent/guards';
import type { PageMap } from '../../client/page/page-types';
import { NO_MASKS } from '../../client/safety/masks';
import { estimatePromptTokens } from '../../server/chat/prompt-size';

const PNG = 'data:image/png;base64,iVBORw0KGgo=';

function run(budget: number, steps: number): SavedRun {
  return {
    v: 1,
    id: 'r',
    task: 'Find the invoice',
    options: { maxPromptTokens: budget, maxSteps: 50 },
    step: steps,
    history: Array.from({ length: steps }, (_, i) => ({
      step: i + 1,
      goal: `look at part ${i + 1}`,
      actions: [{ call: `scroll {"direction":"down"}`, ok: true, result: `Scrolled down ${'and read the lines there '.repeat(4)}` }],
      url: 'https://shop.test/',
    })),
    memory: '',
    usage: { promptTokens: 0, completionTokens: 0 },
    startedAt: 0,
    guards: newGuardState(),
    notes: [],
    allowed: [],
    owner: 'o',
  } as SavedRun;
}

const map: PageMap = {
  text: 'page "Shop" https://shop.test/\n⟪page content⟫\n[1]button "Next"\n⟪/page content⟫',
  elements: [],
  stats: { visited: 1, candidates: 1, listed: 1, more: { above: 0, below: 0, left: 0, right: 0, covered: 0 }, tokens: 20, ms: 1 },
};

describe('buildRequest', () => {
  it('keeps a request with a screenshot within the budget the proxy checks, the history making room', () => {
    const state = run(3000, 60);
    const p = planPrompt(state, 61, 'You are an agent.', [], 100);
    const text = buildRequest(p, state, 'm', map, { masks: NO_MASKS });
    const shot = buildRequest(p, state, 'm', map, { masks: NO_MASKS }, PNG);
    const lines = (r: typeof text) => JSON.stringify(r.messages[1]).split('look at part').length;
    // Fewer history lines fit beside the screenshot: the image takes IMAGE_TOKENS of the budget.
    expect(lines(shot)).toBeLessThan(lines(text));
    // And what the proxy counts (text / 4 + IMAGE_TOKENS an image) stays within the run's budget.
    expect(estimatePromptTokens(shot as Parameters<typeof estimatePromptTokens>[0])).toBeLessThanOrEqual(3000 + 100);
    expect(IMAGE_TOKENS).toBeGreaterThan(0);
  });
});

describe('planPrompt within a short budget', () => {
  /** A run whose last step read a long text (a `read` of a whole article). */
  function longResults(budget: number): SavedRun {
    const s = run(budget, 1);
    s.history[0]!.actions = [{ call: 'read', ok: true, result: 'The article says '.repeat(200) }];
    return s;
  }

  it('the page text gives way first: the map goes under its usual least before the request can overflow', () => {
    const roomy = planPrompt(longResults(12_000), 2, 'You are an agent.', [], 100);
    const tight = planPrompt(longResults(1800), 2, 'You are an agent.', [], 100);
    expect(roomy.mapTokens).toBeGreaterThanOrEqual(800);
    expect(tight.mapTokens).toBeLessThan(800);
    // The last results are still whole: only the map was cut.
    expect(tight.base.lastResults).toEqual(roomy.base.lastResults);
    expect(tight.base.lastResults.join('\n')).not.toContain('(cut)');
  });

  it('then the last results are cut, so what is sent stays within the budget', () => {
    const state = longResults(1200);
    const p = planPrompt(state, 2, 'You are an agent.', [], 100);
    expect(p.base.lastResults.join('\n')).toContain('(cut)');
    const req = buildRequest(p, state, 'm', map, { masks: NO_MASKS });
    expect(estimatePromptTokens(req as Parameters<typeof estimatePromptTokens>[0])).toBeLessThanOrEqual(1200);
  });
});
