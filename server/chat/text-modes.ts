/**
 * Which models get the text protocol: those the operator listed (PAGEHAND_TEXT_MODELS), and
 * those this proxy found out about — an upstream that refused `tools`, or a model that wrote
 * its call as text instead of calling twice in a row. What was found is kept in memory, per
 * provider and model, bounded (a Worker isolate or a restart starts afresh and finds out again
 * with one refused request).
 */
import { matchesModel } from '../config';
import { ProxyError } from '../errors';
import type { ProviderName } from './upstream-errors';

/** Upstream messages that say the server or model takes no tools (vLLM without a tool parser,
 * Ollama, llama.cpp without --jinja, Gemini's Gemma models, and the usual wordings). */
const REFUSES_TOOLS =
  /tool[\s_-]?choice|(?:does not|doesn't|do not) support (?:tools|tool|function)|\btools?\b.{0,40}\b(?:not (?:supported|enabled|allowed)|unsupported)|function[\s_-]?call(?:ing|s)?.{0,20}\bnot (?:supported|enabled)|tools param requires/i;

/** Whether an upstream's answer refuses the request's tools (a 4xx naming them). */
export const refusesTools = (e: unknown): e is ProxyError => e instanceof ProxyError && e.code === 'upstream_rejected' && REFUSES_TOOLS.test(e.message);

/** Replies in a row that wrote a call as text instead of calling, before text mode is chosen. */
const STRIKES = 2;

export class TextModes {
  private readonly found = new Map<string, string>();
  private readonly strikes = new Map<string, number>();

  constructor(
    private readonly configured: readonly string[],
    private readonly max = 256,
  ) {}

  uses(provider: ProviderName, model: string): boolean {
    return matchesModel(this.configured, model) || this.found.has(`${provider}:${model}`);
  }

  /** Text mode from now on for this model; `why` goes to the log. */
  remember(provider: ProviderName, model: string, why: string): void {
    const key = `${provider}:${model}`;
    this.found.delete(key);
    this.found.set(key, why);
    // Oldest first out: a Map iterates in insertion order.
    while (this.found.size > this.max) this.found.delete(this.found.keys().next().value!);
  }

  /**
   * A tool-mode reply seen to its end: `wroteCallAsText` when it had no tool call but its text
   * held one. Returns true when this reply turned text mode on.
   */
  noteReply(provider: ProviderName, model: string, wroteCallAsText: boolean): boolean {
    const key = `${provider}:${model}`;
    if (!wroteCallAsText) {
      this.strikes.delete(key);
      return false;
    }
    const n = (this.strikes.get(key) ?? 0) + 1;
    this.strikes.delete(key);
    if (n < STRIKES) {
      this.strikes.set(key, n);
      while (this.strikes.size > this.max) this.strikes.delete(this.strikes.keys().next().value!);
      return false;
    }
    this.remember(provider, model, `wrote its call as text ${n} times in a row`);
    return true;
  }
}
