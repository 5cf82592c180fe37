/**
 * Proxy configuration: which providers exist, which sites (public tokens) may use them, and the
 * limits. Built from environment variables on Node and from vars/secrets on Workers — the same
 * names in both places, parsed here once.
 */
import { memoryRateLimiter } from './rate-limit/memory';
import type { RateLimiter } from './rate-limit/types';

/** A site is one public token bound to the origins (and optionally models/limits) it may use. */
export interface Site {
  /** Bearer token the page sends. Public (it sits in the page), so origins and limits guard it. */
  token: string;
  /** Exact origins such as `https://shop.example`, or `"*"` for any (a personal bookmarklet token). */
  origins: string[];
  /** Models this token may use; omitted → the server's default list. `"*"` allows any model. */
  models?: string[];
  /** Requests per minute for this token (memory store on Node; see README for Workers). */
  rpm?: number;
  /** Cap on generated tokens per request; larger requests are clamped to it. */
  maxTokens?: number;
  /** Requests per minute for one client address using this token (PAGEHAND_CLIENT_RPM otherwise). */
  clientRpm?: number;
  /** Cap on a request's estimated prompt tokens (PAGEHAND_MAX_PROMPT_TOKENS otherwise). */
  maxPromptTokens?: number;
}

export interface OpenAIProvider {
  /** Never sent anywhere but the upstream's Authorization header. */
  apiKey: string;
  /** Any OpenAI-compatible base URL (…/v1); omitted → the SDK's own default. */
  baseURL?: string;
}

export interface GeminiProvider {
  apiKey: string;
  /** Omitted → the SDK's own default. */
  baseUrl?: string;
}

export interface Limits {
  /** Largest request body accepted (413 above). */
  maxBodyBytes: number;
  /** Longest wait for the upstream's response headers, and between two streamed chunks (504). */
  upstreamTimeoutMs: number;
  /** Largest `n` (choices per request) accepted (400 above). Always 1: one step, one answer. */
  maxN: number;
  /** Requests per minute for a site without `rpm`. */
  defaultRpm: number;
  /** Requests per minute per client address, for a site without `clientRpm`. */
  defaultClientRpm: number;
  /** Token cap for a site without `maxTokens`. */
  defaultMaxTokens: number;
  /** Prompt cap (estimated tokens: characters / 4) for a site without `maxPromptTokens`. */
  defaultMaxPromptTokens: number;
  /** Lifetime of a session token from POST /v1/session. */
  sessionTtlSeconds: number;
}

/** A model's price: US dollars per million prompt (`input`) and generated (`output`) tokens. */
export interface ModelPrice {
  input: number;
  output: number;
}

/** Model name (or a prefix ending in `*`) → its price. */
export type PriceTable = Record<string, ModelPrice>;

export interface LogEvent {
  level: 'info' | 'warn' | 'error';
  msg: string;
  [field: string]: unknown;
}

export type Logger = (event: LogEvent) => void;

export interface ProxyConfig {
  providers: { openai?: OpenAIProvider; gemini?: GeminiProvider };
  /** Model used when a request names none. Undefined when no provider is configured. */
  defaultModel?: string;
  /** Allowed models for sites that list none. */
  models: string[];
  /**
   * Which models accept images: exact names, or prefixes ending in `*` (`gpt-4o*`). Omitted →
   * DEFAULT_VISION_MODELS. The page sends screenshots only to these.
   */
  visionModels?: string[];
  /**
   * Models spoken to with the text protocol (tools described in the prompt, the call read back
   * from the reply's text; chat/text-protocol.ts): exact names, or prefixes ending in `*`, from
   * PAGEHAND_TEXT_MODELS. Others use tool calls until their upstream refuses them.
   */
  textModels?: string[];
  /**
   * US dollars per million tokens, by model (exact names, or prefixes ending in `*`), from
   * PAGEHAND_PRICES. GET /v1/config gives each token its models' prices, so the page can put a
   * cost on a run's usage. Omitted → no prices, no cost.
   */
  prices?: PriceTable;
  sites: Site[];
  limits: Limits;
  /** Counts requests per site token. */
  rateLimiter: RateLimiter;
  /** Counts requests per client address (and token); the memory store honours each `clientRpm`. */
  clientRateLimiter: RateLimiter;
  /**
   * How many reverse proxies in front of this one to believe (TRUST_PROXY): the client address
   * is then read from X-Forwarded-For, that many entries from the right. 0: never read it.
   */
  trustProxyHops: number;
  /** Clock in milliseconds (session expiry); injectable so tests need not sleep. */
  now: () => number;
  /** Every line is redacted of API keys before it reaches this sink. */
  log: Logger;
}

export const DEFAULT_LIMITS: Limits = {
  // One agent step: the prompt plus one screenshot (a few hundred KB as base64) fits with room.
  maxBodyBytes: 4 * 1024 * 1024,
  upstreamTimeoutMs: 120_000,
  maxN: 1,
  defaultRpm: 60,
  defaultClientRpm: 30,
  defaultMaxTokens: 8192,
  defaultMaxPromptTokens: 48_000,
  sessionTtlSeconds: 8 * 60 * 60,
};

/** Server default model lists, per configured provider (see server/README.md). */
export const DEFAULT_OPENAI_MODELS = ['gpt-4.1-mini', 'gpt-4.1', 'gpt-4o-mini', 'gpt-4o', 'gpt-5-mini', 'gpt-5'];
export const DEFAULT_GEMINI_MODELS = ['gemini-2.5-flash', 'gemini-2.5-flash-lite', 'gemini-2.5-pro'];

/** Families known to take image input (PAGEHAND_VISION_MODELS replaces the list). */
export const DEFAULT_VISION_MODELS = ['gpt-4o*', 'gpt-4.1*', 'gpt-5*', 'gemini-*'];

/** Raised at startup for a configuration a human must fix; the message says what. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** The variables read, by name. Values that are empty strings count as unset. */
export type EnvVars = Partial<Record<EnvName, string | undefined>>;
export type EnvName =
  | 'OPENAI_API_KEY'
  | 'OPENAI_BASE_URL'
  | 'GEMINI_API_KEY'
  | 'GEMINI_BASE_URL'
  | 'PAGEHAND_MODEL'
  | 'PAGEHAND_MODELS'
  | 'PAGEHAND_VISION_MODELS'
  | 'PAGEHAND_TEXT_MODELS'
  | 'PAGEHAND_PRICES'
  | 'PAGEHAND_SITES'
  | 'PAGEHAND_MAX_BODY_BYTES'
  | 'PAGEHAND_UPSTREAM_TIMEOUT_MS'
  | 'PAGEHAND_CLIENT_RPM'
  | 'PAGEHAND_MAX_PROMPT_TOKENS'
  | 'PAGEHAND_SESSION_TTL_S'
  | 'TRUST_PROXY';

const nameList = (raw: string): string[] =>
  raw
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);

const get = (env: EnvVars, name: EnvName): string | undefined => {
  const v = env[name];
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
};

export interface FromEnvOptions {
  rateLimiter: RateLimiter;
  /** Per-client counting; omitted → an in-memory store (it honours each site's `clientRpm`). */
  clientRateLimiter?: RateLimiter;
  /** Omitted → Date.now. */
  now?: () => number;
  log: Logger;
  /** Sites to use when PAGEHAND_SITES is unset (Node: the personal token). */
  fallbackSites?: Site[];
}

/**
 * Reads the configuration. Throws ConfigError (never a key in the message) for values that
 * cannot work, so a bad deploy fails loudly at start instead of on the first request.
 *
 * @example
 * const config = configFromEnv(process.env, { rateLimiter: memoryRateLimiter(), log: consoleLogger });
 */
export function configFromEnv(env: EnvVars, options: FromEnvOptions): ProxyConfig {
  const openaiKey = get(env, 'OPENAI_API_KEY');
  const openaiBase = get(env, 'OPENAI_BASE_URL');
  const geminiKey = get(env, 'GEMINI_API_KEY');
  const geminiBase = get(env, 'GEMINI_BASE_URL');
  if (openaiBase) assertHttpUrl('OPENAI_BASE_URL', openaiBase);
  if (geminiBase) assertHttpUrl('GEMINI_BASE_URL', geminiBase);

  const providers: ProxyConfig['providers'] = {};
  // A base URL alone is enough: local servers (Ollama, LM Studio, vLLM) usually need no key.
  if (openaiKey || openaiBase) providers.openai = { apiKey: openaiKey ?? 'no-key', baseURL: openaiBase };
  if (geminiKey) providers.gemini = { apiKey: geminiKey, baseUrl: geminiBase };

  const explicitModel = get(env, 'PAGEHAND_MODEL');
  const listed = get(env, 'PAGEHAND_MODELS');
  const models = listed
    ? listed
        .split(',')
        .map((m) => m.trim())
        .filter(Boolean)
    : [...(providers.openai ? DEFAULT_OPENAI_MODELS : []), ...(providers.gemini ? DEFAULT_GEMINI_MODELS : [])];
  if (explicitModel && !models.includes(explicitModel) && !models.includes('*')) models.unshift(explicitModel);
  const defaultModel = explicitModel ?? models.find((m) => m !== '*');

  // "none" says no model takes images (a text-only deployment).
  const vision = get(env, 'PAGEHAND_VISION_MODELS');
  const visionModels =
    vision === undefined
      ? DEFAULT_VISION_MODELS
      : vision === 'none'
        ? []
        : vision
            .split(',')
            .map((m) => m.trim())
            .filter(Boolean);

  const textRaw = get(env, 'PAGEHAND_TEXT_MODELS');
  const textModels = textRaw ? nameList(textRaw) : [];

  const pricesRaw = get(env, 'PAGEHAND_PRICES');
  const prices = pricesRaw ? parsePrices(pricesRaw) : undefined;

  const sitesRaw = get(env, 'PAGEHAND_SITES');
  const sites = sitesRaw ? parseSites(sitesRaw) : (options.fallbackSites ?? []);

  return {
    providers,
    defaultModel,
    models,
    visionModels,
    textModels,
    ...(prices ? { prices } : {}),
    sites,
    limits: {
      ...DEFAULT_LIMITS,
      maxBodyBytes: positiveInt(env, 'PAGEHAND_MAX_BODY_BYTES') ?? DEFAULT_LIMITS.maxBodyBytes,
      upstreamTimeoutMs: positiveInt(env, 'PAGEHAND_UPSTREAM_TIMEOUT_MS') ?? DEFAULT_LIMITS.upstreamTimeoutMs,
      defaultClientRpm: positiveInt(env, 'PAGEHAND_CLIENT_RPM') ?? DEFAULT_LIMITS.defaultClientRpm,
      defaultMaxPromptTokens: positiveInt(env, 'PAGEHAND_MAX_PROMPT_TOKENS') ?? DEFAULT_LIMITS.defaultMaxPromptTokens,
      sessionTtlSeconds: positiveInt(env, 'PAGEHAND_SESSION_TTL_S') ?? DEFAULT_LIMITS.sessionTtlSeconds,
    },
    rateLimiter: options.rateLimiter,
    clientRateLimiter: options.clientRateLimiter ?? memoryRateLimiter(),
    trustProxyHops: trustProxyHops(env),
    now: options.now ?? Date.now,
    log: options.log,
  };
}

function positiveInt(env: EnvVars, name: EnvName): number | undefined {
  const v = get(env, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new ConfigError(`${name} must be a positive integer, got "${v}"`);
  return n;
}

/** TRUST_PROXY: unset or 0 → 0; a positive whole number → that many proxies. */
export function trustProxyHops(env: EnvVars): number {
  const v = get(env, 'TRUST_PROXY');
  if (v === undefined || v === '0') return 0;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 10) {
    throw new ConfigError(`TRUST_PROXY must be the number of reverse proxies in front of pagehand (1 for one), got "${v}"`);
  }
  return n;
}

function assertHttpUrl(name: EnvName, value: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${name} must be http(s)`);
}

/**
 * Parses PAGEHAND_SITES: a JSON list of
 * `{ token, origins, models?, rpm?, maxTokens?, clientRpm?, maxPromptTokens? }`.
 * Messages name the site by position, never by token.
 */
export function parseSites(json: string): Site[] {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new ConfigError('PAGEHAND_SITES is not valid JSON (expected a list of { token, origins, … })');
  }
  if (!Array.isArray(raw)) throw new ConfigError('PAGEHAND_SITES must be a JSON list');
  const seen = new Set<string>();
  return raw.map((s: unknown, i): Site => {
    const where = `PAGEHAND_SITES[${i}]`;
    if (typeof s !== 'object' || s === null || Array.isArray(s)) throw new ConfigError(`${where} must be an object`);
    const o = s as Record<string, unknown>;
    const known = new Set(['token', 'origins', 'models', 'rpm', 'maxTokens', 'clientRpm', 'maxPromptTokens']);
    for (const k of Object.keys(o)) if (!known.has(k)) throw new ConfigError(`${where} has an unknown field "${k}"`);
    if (typeof o.token !== 'string' || o.token.length < 16 || /\s/.test(o.token)) {
      throw new ConfigError(`${where}.token must be a string of at least 16 characters without spaces`);
    }
    if (o.token.startsWith('phs_')) throw new ConfigError(`${where}.token must not begin with "phs_" (the prefix of session tokens)`);
    if (seen.has(o.token)) throw new ConfigError(`${where}.token repeats an earlier site's token`);
    seen.add(o.token);
    if (!Array.isArray(o.origins) || o.origins.length === 0) {
      throw new ConfigError(`${where}.origins must be a non-empty list of origins or "*"`);
    }
    const origins = o.origins.map((origin, j) => {
      if (origin === '*') return origin;
      if (typeof origin !== 'string') throw new ConfigError(`${where}.origins[${j}] must be a string`);
      let url: URL;
      try {
        url = new URL(origin);
      } catch {
        throw new ConfigError(`${where}.origins[${j}] is not an origin like https://example.com`);
      }
      if (url.origin !== origin) {
        throw new ConfigError(`${where}.origins[${j}] must be a bare origin ("${url.origin}"), no path or slash`);
      }
      return origin;
    });
    const site: Site = { token: o.token, origins };
    if (o.models !== undefined) {
      if (!Array.isArray(o.models) || o.models.length === 0 || !o.models.every((m) => typeof m === 'string' && m)) {
        throw new ConfigError(`${where}.models must be a non-empty list of model names`);
      }
      site.models = o.models as string[];
    }
    for (const key of ['rpm', 'maxTokens', 'clientRpm', 'maxPromptTokens'] as const) {
      const v = o[key];
      if (v === undefined) continue;
      if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0) {
        throw new ConfigError(`${where}.${key} must be a positive integer`);
      }
      site[key] = v;
    }
    return site;
  });
}

/** The models a site may use. */
export function allowedModels(config: ProxyConfig, site: Site): string[] {
  return site.models ?? config.models;
}

export function isModelAllowed(config: ProxyConfig, site: Site, model: string): boolean {
  const list = allowedModels(config, site);
  return list.includes('*') || list.includes(model);
}

/** The model used when a request names none: the server default if this site may use it,
 * else the site's first listed model. */
export function defaultModelFor(config: ProxyConfig, site: Site): string | undefined {
  if (config.defaultModel && isModelAllowed(config, site, config.defaultModel)) return config.defaultModel;
  return site.models?.find((m) => m !== '*');
}

/** Whether a model name matches an entry of a list: exact, or a prefix ending in `*` (`*` alone matches all). */
export const matchesModel = (list: readonly string[], model: string): boolean =>
  list.some((p) => (p.endsWith('*') ? model.startsWith(p.slice(0, -1)) : model === p));

/** Whether a model matches a vision entry. */
export function acceptsImages(config: ProxyConfig, model: string): boolean {
  return matchesModel(config.visionModels ?? DEFAULT_VISION_MODELS, model);
}

/**
 * `features.images` of GET /v1/config: the site's models that accept images. When the site may
 * use any model (`*`), its models cannot be listed, so the vision entries themselves are given
 * (names, or prefixes ending in `*`).
 */
export function imageModels(config: ProxyConfig, site: Site): string[] {
  const allowed = allowedModels(config, site);
  if (allowed.includes('*')) return [...(config.visionModels ?? DEFAULT_VISION_MODELS)];
  return allowed.filter((m) => acceptsImages(config, m));
}

/**
 * Parses PAGEHAND_PRICES: a JSON object `{ "gpt-4.1-mini": { "input": 0.4, "output": 1.6 } }`,
 * US dollars per million tokens; a key ending in `*` prices every model it begins (`gpt-4o*`).
 */
export function parsePrices(json: string): PriceTable {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new ConfigError('PAGEHAND_PRICES is not valid JSON (expected { "model": { "input": 0.4, "output": 1.6 } }, dollars per million tokens)');
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new ConfigError('PAGEHAND_PRICES must be a JSON object of model → { input, output }');
  const table: PriceTable = {};
  for (const [model, price] of Object.entries(raw)) {
    const where = `PAGEHAND_PRICES[${JSON.stringify(model)}]`;
    if (!model.trim() || model === '*') throw new ConfigError(`${where}: a price needs a model name or a prefix ending in *`);
    if (typeof price !== 'object' || price === null || Array.isArray(price)) throw new ConfigError(`${where} must be an object { input, output }`);
    const p = price as Record<string, unknown>;
    for (const k of Object.keys(p))
      if (k !== 'input' && k !== 'output') throw new ConfigError(`${where} has an unknown field "${k}" (expected input and output)`);
    for (const k of ['input', 'output'] as const) {
      if (typeof p[k] !== 'number' || !Number.isFinite(p[k]) || (p[k] as number) < 0)
        throw new ConfigError(`${where}.${k} must be a number ≥ 0 (dollars per million tokens)`);
    }
    table[model.trim()] = { input: p.input as number, output: p.output as number };
  }
  return table;
}

/** A model's price: its exact entry, else the longest prefix entry (`gpt-4o*`) that matches it. */
export function priceFor(config: ProxyConfig, model: string): ModelPrice | undefined {
  const table = config.prices;
  if (!table) return undefined;
  if (Object.prototype.hasOwnProperty.call(table, model)) return table[model];
  let best: string | undefined;
  for (const key of Object.keys(table)) if (key.endsWith('*') && model.startsWith(key.slice(0, -1)) && (!best || key.length > best.length)) best = key;
  return best ? table[best] : undefined;
}

/**
 * `prices` of GET /v1/config: the site's models that have a price. When the site may use any
 * model (`*`), its models cannot be listed, so the table's entries themselves are given.
 */
export function sitePrices(config: ProxyConfig, site: Site): PriceTable {
  const allowed = allowedModels(config, site);
  if (allowed.includes('*')) return { ...config.prices };
  const out: PriceTable = {};
  for (const m of allowed) {
    const p = priceFor(config, m);
    if (p) out[m] = p;
  }
  return out;
}
