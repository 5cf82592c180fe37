/** Configuration parsing, the memory rate limiter and redaction: pure pieces of the proxy. */
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  DEFAULT_GEMINI_MODELS,
  DEFAULT_OPENAI_MODELS,
  DEFAULT_VISION_MODELS,
  acceptsImages,
  configFromEnv,
  imageModels,
  parseSites,
} from '../../server/config';
import { memoryRateLimiter } from '../../server/rate-limit/memory';
import { redactor } from '../../server/redact';

const opts = { rateLimiter: memoryRateLimiter(), log: () => {} };

describe('PAGEHAND_SITES', () => {
  it('parses sites with their optional limits', () => {
    const sites = parseSites(
      JSON.stringify([
        {
          token: 'tok-a-0123456789abcdef',
          origins: ['https://a.test', 'http://localhost:3000'],
          models: ['gpt-test'],
          rpm: 10,
          maxTokens: 500,
          clientRpm: 5,
          maxPromptTokens: 9000,
        },
        { token: 'tok-b-0123456789abcdef', origins: ['*'] },
      ]),
    );
    expect(sites).toEqual([
      {
        token: 'tok-a-0123456789abcdef',
        origins: ['https://a.test', 'http://localhost:3000'],
        models: ['gpt-test'],
        rpm: 10,
        maxTokens: 500,
        clientRpm: 5,
        maxPromptTokens: 9000,
      },
      { token: 'tok-b-0123456789abcdef', origins: ['*'] },
    ]);
  });

  const bad: Array<[string, unknown, RegExp]> = [
    ['not JSON', '{', /not valid JSON/],
    ['an object', { token: 'x' }, /must be a JSON list/],
    ['a short token', [{ token: 'short', origins: ['*'] }], /\[0\]\.token/],
    [
      'a repeated token',
      [
        { token: 'tok-0123456789abcdef', origins: ['*'] },
        { token: 'tok-0123456789abcdef', origins: ['*'] },
      ],
      /\[1\]\.token repeats/,
    ],
    ['no origins', [{ token: 'tok-0123456789abcdef', origins: [] }], /\[0\]\.origins/],
    ['an origin with a path', [{ token: 'tok-0123456789abcdef', origins: ['https://a.test/app'] }], /bare origin/],
    ['an origin that is not a URL', [{ token: 'tok-0123456789abcdef', origins: ['a.test'] }], /not an origin/],
    ['an unknown field', [{ token: 'tok-0123456789abcdef', origins: ['*'], admin: true }], /unknown field "admin"/],
    ['a negative rpm', [{ token: 'tok-0123456789abcdef', origins: ['*'], rpm: -1 }], /rpm must be a positive integer/],
    ['empty models', [{ token: 'tok-0123456789abcdef', origins: ['*'], models: [] }], /models must be a non-empty list/],
    ['a token shaped like a session token', [{ token: 'phs_0123456789abcdef', origins: ['*'] }], /must not begin with "phs_"/],
    ['a zero clientRpm', [{ token: 'tok-0123456789abcdef', origins: ['*'], clientRpm: 0 }], /clientRpm must be a positive integer/],
    ['a fractional maxPromptTokens', [{ token: 'tok-0123456789abcdef', origins: ['*'], maxPromptTokens: 1.5 }], /maxPromptTokens must be a positive integer/],
  ];
  for (const [name, value, message] of bad) {
    it(`refuses ${name} with a message that names the field and no token`, () => {
      const json = typeof value === 'string' ? value : JSON.stringify(value);
      expect(() => parseSites(json)).toThrow(ConfigError);
      expect(() => parseSites(json)).toThrow(message);
      try {
        parseSites(json);
      } catch (e) {
        expect((e as Error).message).not.toContain('0123456789abcdef');
      }
    });
  }
});

describe('configFromEnv', () => {
  it('configures nothing from an empty environment', () => {
    const c = configFromEnv({}, opts);
    expect(c.providers).toEqual({});
    expect(c.models).toEqual([]);
    expect(c.defaultModel).toBeUndefined();
    expect(c.sites).toEqual([]);
  });

  it('uses the built-in model lists of the configured providers, and PAGEHAND_MODEL first', () => {
    expect(configFromEnv({ OPENAI_API_KEY: 'sk-x' }, opts).models).toEqual(DEFAULT_OPENAI_MODELS);
    const both = configFromEnv({ OPENAI_API_KEY: 'sk-x', GEMINI_API_KEY: 'g' }, opts);
    expect(both.models).toEqual([...DEFAULT_OPENAI_MODELS, ...DEFAULT_GEMINI_MODELS]);
    expect(both.defaultModel).toBe(DEFAULT_OPENAI_MODELS[0]);
    const local = configFromEnv({ OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1', PAGEHAND_MODEL: 'llama3.1' }, opts);
    expect(local.providers.openai).toEqual({ apiKey: 'no-key', baseURL: 'http://127.0.0.1:11434/v1' });
    expect(local.models[0]).toBe('llama3.1');
    expect(local.defaultModel).toBe('llama3.1');
    expect(configFromEnv({ GEMINI_API_KEY: 'g', PAGEHAND_MODELS: 'gemini-a, gemini-b' }, opts).models).toEqual(['gemini-a', 'gemini-b']);
  });

  it('reads which models accept images: known vision families by default, PAGEHAND_VISION_MODELS instead, "none" for none', () => {
    const def = configFromEnv({ OPENAI_API_KEY: 'sk-x', GEMINI_API_KEY: 'g' }, opts);
    expect(def.visionModels).toEqual(DEFAULT_VISION_MODELS);
    expect(imageModels(def, { token: 't'.repeat(16), origins: ['*'] })).toEqual(def.models);
    const local = configFromEnv(
      { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1', PAGEHAND_MODELS: 'llama3.1,llava:13b', PAGEHAND_VISION_MODELS: 'llava*' },
      opts,
    );
    expect(acceptsImages(local, 'llava:13b')).toBe(true);
    expect(acceptsImages(local, 'llama3.1')).toBe(false);
    expect(imageModels(local, { token: 't'.repeat(16), origins: ['*'] })).toEqual(['llava:13b']);
    expect(configFromEnv({ PAGEHAND_VISION_MODELS: 'none' }, opts).visionModels).toEqual([]);
    expect(configFromEnv({ PAGEHAND_VISION_MODELS: '' }, opts).visionModels).toEqual(DEFAULT_VISION_MODELS);
    expect(acceptsImages(configFromEnv({ PAGEHAND_VISION_MODELS: '*' }, opts), 'anything')).toBe(true);
  });

  it('treats empty strings as unset (wrangler vars default to "")', () => {
    const c = configFromEnv({ OPENAI_API_KEY: '', GEMINI_API_KEY: '  ', OPENAI_BASE_URL: '', PAGEHAND_MODEL: '' }, opts);
    expect(c.providers).toEqual({});
  });

  it('reads the per-client limit, the prompt cap, the session lifetime and TRUST_PROXY, with safe defaults', () => {
    const def = configFromEnv({}, opts);
    expect(def.limits).toMatchObject({
      maxN: 1,
      maxBodyBytes: 4 * 1024 * 1024,
      defaultClientRpm: 30,
      defaultMaxPromptTokens: 48_000,
      sessionTtlSeconds: 8 * 3600,
    });
    expect(def.trustProxyHops).toBe(0);
    const set = configFromEnv({ PAGEHAND_CLIENT_RPM: '12', PAGEHAND_MAX_PROMPT_TOKENS: '1000', PAGEHAND_SESSION_TTL_S: '600', TRUST_PROXY: '1' }, opts);
    expect(set.limits).toMatchObject({ defaultClientRpm: 12, defaultMaxPromptTokens: 1000, sessionTtlSeconds: 600 });
    expect(set.trustProxyHops).toBe(1);
    expect(configFromEnv({ TRUST_PROXY: '0' }, opts).trustProxyHops).toBe(0);
    expect(() => configFromEnv({ TRUST_PROXY: 'yes' }, opts)).toThrow(/TRUST_PROXY must be the number of reverse proxies/);
    expect(() => configFromEnv({ PAGEHAND_CLIENT_RPM: '0' }, opts)).toThrow(/PAGEHAND_CLIENT_RPM/);
    expect(() => configFromEnv({ PAGEHAND_SESSION_TTL_S: '8h' }, opts)).toThrow(/PAGEHAND_SESSION_TTL_S/);
  });

  it('refuses bad URLs and numbers', () => {
    expect(() => configFromEnv({ OPENAI_BASE_URL: 'ftp://x' }, opts)).toThrow(/OPENAI_BASE_URL must be http/);
    expect(() => configFromEnv({ GEMINI_BASE_URL: 'nope' }, opts)).toThrow(/GEMINI_BASE_URL is not a URL/);
    expect(() => configFromEnv({ PAGEHAND_MAX_BODY_BYTES: '-5' }, opts)).toThrow(/PAGEHAND_MAX_BODY_BYTES/);
    expect(() => configFromEnv({ PAGEHAND_UPSTREAM_TIMEOUT_MS: '1.5' }, opts)).toThrow(/PAGEHAND_UPSTREAM_TIMEOUT_MS/);
  });
});

describe('memoryRateLimiter', () => {
  it('allows a burst of rpm, then refills at rpm per minute, per key', () => {
    let now = 0;
    const limiter = memoryRateLimiter({ now: () => now });
    const hit = (key = 'a') => limiter.hit(key, 6) as { ok: boolean; retryAfterSeconds?: number };
    for (let i = 0; i < 6; i++) expect(hit().ok).toBe(true);
    expect(hit()).toEqual({ ok: false, retryAfterSeconds: 10 });
    expect(hit('b').ok).toBe(true);
    now += 9_000;
    expect(hit()).toEqual({ ok: false, retryAfterSeconds: 1 });
    now += 1_000;
    expect(hit().ok).toBe(true);
    expect(hit().ok).toBe(false);
    now += 10 * 60_000;
    for (let i = 0; i < 6; i++) expect(hit().ok).toBe(true);
    expect(hit().ok).toBe(false);
  });

  it('keeps at most maxKeys buckets, dropping the one used longest ago (a flood of addresses cannot grow it)', () => {
    const limiter = memoryRateLimiter({ now: () => 0, maxKeys: 3 });
    const hit = (key: string) => (limiter.hit(key, 1) as { ok: boolean }).ok;
    expect(hit('a')).toBe(true);
    expect(hit('b')).toBe(true);
    expect(hit('c')).toBe(true);
    expect(hit('a')).toBe(false); // 'a' is now the newest
    expect(hit('d')).toBe(true); // drops 'b'
    expect(hit('a')).toBe(false);
    expect(hit('c')).toBe(false);
    expect(hit('b')).toBe(true); // forgotten, so a fresh bucket
  });
});

describe('redactor', () => {
  it('removes configured secrets and key-shaped strings, and leaves the rest', () => {
    const redact = redactor(['my-very-secret-key-123', undefined, 'short']);
    expect(redact('key my-very-secret-key-123 failed')).toBe('key [redacted] failed');
    expect(redact('got sk-proj-ABCDEFGHIJKLMNOPQRSTUV and AIzaSyABCDEFGHIJKLMNOPQRSTUVWX')).toBe('got [redacted] and [redacted]');
    expect(redact('a short word stays')).toBe('a short word stays');
  });
});
