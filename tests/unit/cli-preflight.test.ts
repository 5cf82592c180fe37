/** The runner's model check: the mistakes it catches before a browser starts. */
import { describe, expect, it } from 'vitest';
import { checkModel } from '../../cli/preflight';

const PROXY = 'http://127.0.0.1:8787';

describe('checkModel', () => {
  it('refuses any model when the proxy has no provider, and says what to set', () => {
    const bare = { models: [], providers: { openai: false, gemini: false } };
    expect(() => checkModel(bare, 'gpt-4o-mini', PROXY)).toThrow(/no model provider configured: set OPENAI_API_KEY/);
    expect(() => checkModel(bare, undefined, PROXY)).toThrow(/no model provider configured/);
  });

  it('refuses a model the token may not use, naming the allowed ones', () => {
    const info = { models: ['a', 'b'], defaultModel: 'a', providers: { openai: true } };
    expect(() => checkModel(info, 'c', PROXY)).toThrow(/"c" is not allowed .* Allowed: a, b\./);
    expect(() => checkModel(info, 'b', PROXY)).not.toThrow();
    expect(() => checkModel(info, undefined, PROXY)).not.toThrow();
  });

  it('lets any model through a wildcard, and a proxy that does not list providers is taken at its word', () => {
    expect(() => checkModel({ models: ['*'], providers: { gemini: true } }, 'anything', PROXY)).not.toThrow();
    expect(() => checkModel({ models: [] }, 'm', PROXY)).not.toThrow();
    expect(() => checkModel({ models: [] }, undefined, PROXY)).toThrow(/offers no model/);
  });
});
