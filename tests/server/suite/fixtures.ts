/** Shared constants and helpers of the proxy suite. Runtime-neutral (Node and workerd). */
import type { ProxyTarget } from './target';

/** Distinctive fake keys: any response or log containing them is a leak. */
export const KEYS = {
  openai: 'sk-test-OPENAI-SECRET-k3y-0123456789abcdef',
  gemini: 'AIzaTEST-GEMINI-SECRET-k3y-0123456789abcd',
} as const;

export const SHOP_ORIGIN = 'https://shop.test';
export const TOKENS = {
  /** Bound to SHOP_ORIGIN, default models and limits. */
  shop: 'tok-shop-0123456789abcdef',
  /** Personal: any origin. */
  personal: 'tok-personal-0123456789abcdef',
  /** Narrow: listed models, 100 tokens. */
  limited: 'tok-limited-0123456789abcdef',
  /** 3 requests per minute. */
  metered: 'tok-metered-0123456789abcdef',
} as const;

export const MODELS = { openai: 'gpt-test', openaiReasoning: 'gpt-5-test', gemini: 'gemini-test-flash' } as const;

export function baseVars(fake: ProxyTarget['fake'], extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    OPENAI_API_KEY: KEYS.openai,
    OPENAI_BASE_URL: fake.openaiBaseURL,
    GEMINI_API_KEY: KEYS.gemini,
    GEMINI_BASE_URL: fake.geminiBaseUrl,
    PAGEHAND_MODEL: MODELS.openai,
    PAGEHAND_MODELS: `${MODELS.openai},${MODELS.openaiReasoning},${MODELS.gemini}`,
    PAGEHAND_SITES: JSON.stringify([
      { token: TOKENS.shop, origins: [SHOP_ORIGIN] },
      { token: TOKENS.personal, origins: ['*'] },
      { token: TOKENS.limited, origins: ['*'], models: [MODELS.openai, MODELS.openaiReasoning, MODELS.gemini], maxTokens: 100 },
      { token: TOKENS.metered, origins: ['*'], rpm: 3 },
    ]),
    // Every request of a suite comes from one address; the per-client limit has its own tests.
    PAGEHAND_CLIENT_RPM: '100000',
    ...extra,
  };
}

export const auth = (token: string = TOKENS.personal): Record<string, string> => ({ Authorization: `Bearer ${token}` });

export const jsonHeaders = (token: string = TOKENS.personal): Record<string, string> => ({
  ...auth(token),
  'Content-Type': 'application/json',
});

let counter = 0;
/** A tag unique across the run (both runtimes share no fake, but stay unique anyway). */
export const newTag = (label: string): string => `${label}-${Date.now().toString(36)}-${(++counter).toString(36)}`;

/** The JSON payloads of an SSE text, in order ("[DONE]" kept as the string). */
export function sseEvents(text: string): unknown[] {
  return text
    .split(/\r?\n\r?\n/)
    .map((block) =>
      block
        .split(/\r?\n/)
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trimStart())
        .join('\n'),
    )
    .filter((d) => d !== '')
    .map((d) => (d === '[DONE]' ? d : JSON.parse(d)));
}

export function containsSecret(text: string): boolean {
  return text.includes(KEYS.openai) || text.includes(KEYS.gemini);
}

/** A tiny valid PNG (1×1) as a data URL. */
export const PNG_DATA_URL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
