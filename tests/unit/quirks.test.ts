import { describe, expect, it } from 'vitest';
import { applyQuirks, geminiQuirks, quirkFor } from '../../server/chat/quirks';
import type { ResolvedChatRequest } from '../../server/chat/types';

const messages = [{ role: 'user' as const, content: 'hi' }];
const req = (model: string, extra: Partial<ResolvedChatRequest> = {}): ResolvedChatRequest => ({ model, messages, ...extra });
const sampling = { temperature: 0.2, top_p: 0.9, presence_penalty: 0.1, frequency_penalty: 0.1 };

describe('OpenAI-compatible families', () => {
  it.each(['o1', 'o3-mini', 'o4-mini', 'gpt-5', 'gpt-5-mini'])('%s: no sampling parameters, max_completion_tokens', (model) => {
    expect(applyQuirks(req(model, { ...sampling, max_tokens: 800 }), 'openai')).toEqual({ model, messages, max_completion_tokens: 800 });
  });

  it('gpt-5-chat is a chat model: its temperature stays', () => {
    expect(applyQuirks(req('gpt-5-chat-latest', { temperature: 0.2, max_tokens: 800 }), 'openai')).toEqual(
      req('gpt-5-chat-latest', { temperature: 0.2, max_tokens: 800 }),
    );
  });

  it('OpenAI chat models drop reasoning_effort and keep either token name', () => {
    expect(applyQuirks(req('gpt-4.1-mini', { reasoning_effort: 'low', max_completion_tokens: 5 }), 'openai')).toEqual(
      req('gpt-4.1-mini', { max_completion_tokens: 5 }),
    );
  });

  it('other servers (Ollama, vLLM …) get max_tokens and keep the rest', () => {
    expect(applyQuirks(req('llama3.2', { max_completion_tokens: 300, temperature: 0.3, reasoning_effort: 'low' }), 'openai')).toEqual(
      req('llama3.2', { max_tokens: 300, temperature: 0.3, reasoning_effort: 'low' }),
    );
  });
});

describe('Gemini families', () => {
  it('drops penalties on 2.5 and 3, not on other models', () => {
    expect(applyQuirks(req('gemini-2.5-flash', { presence_penalty: 1 }), 'gemini')).toEqual(req('gemini-2.5-flash'));
    expect(applyQuirks(req('gemini-3-pro-preview', { frequency_penalty: 1 }), 'gemini')).toEqual(req('gemini-3-pro-preview'));
    expect(applyQuirks(req('gemini-exp-1206', { frequency_penalty: 1 }), 'gemini')).toEqual(req('gemini-exp-1206', { frequency_penalty: 1 }));
  });

  it('thinking within each family: Pro cannot turn it off, Flash can, 3 takes a level, older models none', () => {
    expect(geminiQuirks('gemini-2.5-pro', 'none')).toEqual({ thinkingConfig: { thinkingBudget: 128 } });
    expect(geminiQuirks('gemini-2.5-pro', 'xhigh')).toEqual({ thinkingConfig: { thinkingBudget: 32_768 } });
    expect(geminiQuirks('gemini-2.5-flash', 'none')).toEqual({ thinkingConfig: { thinkingBudget: 0 } });
    expect(geminiQuirks('gemini-2.5-flash', 'xhigh')).toEqual({ thinkingConfig: { thinkingBudget: 24_576 } });
    expect(geminiQuirks('gemini-2.5-flash-lite', 'low')).toEqual({ thinkingConfig: { thinkingBudget: 1024 } });
    expect(geminiQuirks('gemini-3-flash-preview', 'medium')).toEqual({ thinkingConfig: { thinkingLevel: 'HIGH' } });
    expect(geminiQuirks('gemini-3-flash-preview', 'minimal')).toEqual({ thinkingConfig: { thinkingLevel: 'LOW' } });
    expect(geminiQuirks('gemini-2.5-flash', undefined)).toEqual({});
    expect(applyQuirks(req('gemini-2.0-flash', { reasoning_effort: 'high' }), 'gemini')).toEqual(req('gemini-2.0-flash'));
  });

  it('older families block only high harm (their default ends runs on ordinary pages)', () => {
    const { safetySettings } = geminiQuirks('gemini-1.5-flash', undefined);
    expect(safetySettings).toHaveLength(4);
    expect(new Set(safetySettings!.map((s) => s.threshold))).toEqual(new Set(['BLOCK_ONLY_HIGH']));
    expect(geminiQuirks('gemini-2.5-flash', undefined).safetySettings).toBeUndefined();
  });

  it('every model has a row', () => {
    expect(quirkFor('gemini', 'anything').family).toBe('other Gemini models');
    expect(quirkFor('openai', 'anything').tokenLimit).toBe('max_tokens');
  });
});
