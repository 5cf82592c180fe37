/**
 * One table of what each model family accepts, so a request is sent the way the upstream takes
 * it the first time: parameters the family refuses are dropped, the output-token limit gets
 * the name the family reads, and Gemini's thinking and safety settings are chosen per family.
 * The first row whose provider and pattern match is the model's. Pure.
 */
import { HarmBlockThreshold, HarmCategory, ThinkingLevel, type GenerateContentConfig } from '@google/genai';
import type { ChatRequest, ReasoningEffort, ResolvedChatRequest } from './types';
import type { ProviderName } from './upstream-errors';

type Param = keyof ChatRequest;

/** How a family's thinking is set from `reasoning_effort`: a token budget within a range (and
 * whether 0 turns it off), or a level. */
type Thinking = { budget: { min: number; max: number; canTurnOff: boolean } } | { level: true };

export interface Quirk {
  /** For people: which models this row is about. */
  family: string;
  provider: ProviderName;
  match: RegExp;
  /** Parameters the family answers with a 400: removed. */
  drop?: Param[];
  /** The output-token limit's name the family reads; the other name is renamed to it. */
  tokenLimit?: 'max_tokens' | 'max_completion_tokens';
  /** Gemini: how `reasoning_effort` becomes the thinking configuration (no effort: the model's default). */
  thinking?: Thinking;
  /** Gemini: the block threshold for the harm categories (page text is data the user asked to read). */
  safety?: HarmBlockThreshold;
}

const SAMPLING: Param[] = ['temperature', 'top_p', 'presence_penalty', 'frequency_penalty'];
const PENALTIES: Param[] = ['presence_penalty', 'frequency_penalty'];

export const QUIRKS: readonly Quirk[] = [
  {
    family: 'OpenAI reasoning models (o1, o3, o4, gpt-5 but its -chat models)',
    provider: 'openai',
    match: /^(o\d|gpt-5(?!.*-chat))/i,
    // "Unsupported parameter: 'temperature' is not supported with this model."
    drop: SAMPLING,
    // "Unsupported parameter: 'max_tokens' … Use 'max_completion_tokens' instead."
    tokenLimit: 'max_completion_tokens',
  },
  {
    family: 'OpenAI chat models (gpt-4o, gpt-4.1, gpt-5-chat …)',
    provider: 'openai',
    match: /^(gpt-|chatgpt-|ft:gpt-)/i,
    // "Unrecognized request argument supplied: reasoning_effort" on models that do not reason.
    drop: ['reasoning_effort'],
  },
  {
    family: 'other OpenAI-compatible servers (Ollama, vLLM, LM Studio, llama.cpp …)',
    provider: 'openai',
    match: /./,
    // Older servers read only max_tokens and ignore the newer name: the site's cap must hold.
    tokenLimit: 'max_tokens',
  },
  {
    family: 'Gemini 3',
    provider: 'gemini',
    match: /^gemini-3/i,
    drop: PENALTIES,
    thinking: { level: true },
  },
  {
    family: 'Gemini 2.5 Pro',
    provider: 'gemini',
    match: /^gemini-2\.5-pro/i,
    // "Penalty is not enabled for models/…"
    drop: PENALTIES,
    // Its thinking cannot be turned off: a budget of 0 is a 400.
    thinking: { budget: { min: 128, max: 32_768, canTurnOff: false } },
  },
  {
    family: 'Gemini 2.5 Flash-Lite',
    provider: 'gemini',
    match: /^gemini-2\.5-flash-lite/i,
    drop: PENALTIES,
    thinking: { budget: { min: 512, max: 24_576, canTurnOff: true } },
  },
  {
    family: 'Gemini 2.5 Flash',
    provider: 'gemini',
    match: /^gemini-2\.5-flash/i,
    drop: PENALTIES,
    thinking: { budget: { min: 1, max: 24_576, canTurnOff: true } },
  },
  {
    family: 'Gemini 2.0 and older',
    provider: 'gemini',
    match: /^gemini-(1|2\.0)/i,
    // No thinking to configure: a thinking configuration is a 400.
    drop: ['reasoning_effort'],
    // Their default blocks at medium, which ends runs on ordinary pages (news, reviews).
    safety: HarmBlockThreshold.BLOCK_ONLY_HIGH,
  },
  { family: 'other Gemini models', provider: 'gemini', match: /./ },
];

export function quirkFor(provider: ProviderName, model: string): Quirk {
  return QUIRKS.find((q) => q.provider === provider && q.match.test(model))!;
}

/**
 * The request with the family's refused parameters dropped and its token limit named right.
 *
 * @example
 * applyQuirks({ model: 'o3-mini', messages, temperature: 0.2, max_tokens: 800 }, 'openai');
 * // { model: 'o3-mini', messages, max_completion_tokens: 800 }
 */
export function applyQuirks(req: ResolvedChatRequest, provider: ProviderName): ResolvedChatRequest {
  const q = quirkFor(provider, req.model);
  const out: Record<string, unknown> = { ...req };
  for (const p of q.drop ?? []) delete out[p];
  const other = q.tokenLimit === 'max_tokens' ? 'max_completion_tokens' : 'max_tokens';
  if (q.tokenLimit && out[other] !== undefined) {
    if (out[q.tokenLimit] === undefined) out[q.tokenLimit] = out[other];
    delete out[other];
  }
  return out as unknown as ResolvedChatRequest;
}

const BUDGET: Record<ReasoningEffort, number> = { none: 0, minimal: 0, low: 1024, medium: 8192, high: 24_576, xhigh: 32_768 };
const HARMS = [
  HarmCategory.HARM_CATEGORY_HARASSMENT,
  HarmCategory.HARM_CATEGORY_HATE_SPEECH,
  HarmCategory.HARM_CATEGORY_SEXUALLY_EXPLICIT,
  HarmCategory.HARM_CATEGORY_DANGEROUS_CONTENT,
];

/**
 * Gemini's thinking and safety settings for this model, chosen by its row.
 *
 * @example
 * geminiQuirks('gemini-2.5-pro', 'none'); // { thinkingConfig: { thinkingBudget: 128 } }
 */
export function geminiQuirks(model: string, effort: ReasoningEffort | undefined): Pick<GenerateContentConfig, 'thinkingConfig' | 'safetySettings'> {
  const q = quirkFor('gemini', model);
  const out: Pick<GenerateContentConfig, 'thinkingConfig' | 'safetySettings'> = {};
  if (q.safety) out.safetySettings = HARMS.map((category) => ({ category, threshold: q.safety! }));
  if (effort === undefined || !q.thinking) return out;
  if ('level' in q.thinking) {
    out.thinkingConfig = { thinkingLevel: effort === 'medium' || effort === 'high' || effort === 'xhigh' ? ThinkingLevel.HIGH : ThinkingLevel.LOW };
    return out;
  }
  const { min, max, canTurnOff } = q.thinking.budget;
  const want = BUDGET[effort];
  out.thinkingConfig = { thinkingBudget: want === 0 && canTurnOff ? 0 : Math.min(max, Math.max(min, want)) };
  return out;
}
