/**
 * `pagehand.init(config)` checked before any of it applies: a wrong value is the site owner's
 * mistake, told at once by a thrown error that names the field and what it accepts — never a
 * half-configured overlay. Pure (no DOM), so unit-tested directly.
 */
import type { InitConfig, LauncherPosition, SiteConfig, Theme, UiConfig } from '../agent/public-types';
import { patternProblem, redactionEntry, type Redaction } from '../safety/masks';
import { RISK_MARKS } from '../safety/marks';
import { recordingProblem } from '../../common/recording';
import { framesProblem } from '../page/frames/config';
import type { RiskyRule } from '../page/facts-types';

export const THEMES: readonly Theme[] = ['auto', 'light', 'dark'];
export const POSITIONS: readonly LauncherPosition[] = ['bottom-right', 'bottom-left', 'top-right', 'top-left'];

export interface ParsedInit {
  /** For the agent (`configure`): the run configuration. */
  site: SiteConfig;
  ui: UiConfig;
  autoOpen: boolean;
  /** Beneath every run's own options. */
  runDefaults: { model?: string; lang?: string; proxy?: string; token?: string };
  /** `redact`, split into selectors and compiled patterns (client/safety/masks.ts applies them). */
  redaction: Redaction;
  /** Fields init does not know (a typo, most likely): warned about, not fatal. */
  unknown: string[];
  /** Origins of frames (and of pages framing this one) pagehand may talk to across origins. */
  frames: string[];
}

const SITE_KEYS = ['instructions', 'knowledge', 'tools', 'allowedActions', 'deny', 'risky', 'confirm', 'redact', 'webmcp', 'recordings'] as const;
const OTHER_KEYS = ['theme', 'launcherText', 'autoOpen', 'position', 'lang', 'model', 'proxy', 'token', 'frames', 'suggestions'] as const;
export const INIT_KEYS: readonly string[] = [...SITE_KEYS, ...OTHER_KEYS];

/** BCP 47 in the shape people write it: `es`, `pt-BR`, `zh-Hant-TW`. */
const LANG_TAG = /^[a-z]{2,3}(-[a-z0-9]{1,8})*$/i;

export class InitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PagehandInitError';
  }
}

const shown = (v: unknown): string => {
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return 'an array';
  if (v === null) return 'null';
  return typeof v === 'object' || typeof v === 'function' ? `a ${typeof v}` : String(v);
};

export function fail(field: string, got: unknown, expected: string): never {
  throw new InitError(`pagehand.init: ${field} must be ${expected} (got ${shown(got)}).`);
}

const oneOf = (values: readonly string[]): string => `one of ${values.map((v) => `'${v}'`).join(', ')}`;

function pick<T extends string>(field: string, v: unknown, values: readonly T[]): T | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !values.includes(v as T)) fail(field, v, oneOf(values));
  return v as T;
}

/** A non-empty string, trimmed; `shape`: what it must look like besides. */
function text(field: string, v: unknown, expected = 'a non-empty string', shape?: RegExp): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !v.trim() || (shape && !shape.test(v.trim()))) fail(field, v, expected);
  return v.trim();
}

function strings(field: string, v: unknown): string[] | undefined {
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) fail(field, v, 'an array of strings');
  return v as string[];
}

/** A selector the browser can parse (checked where there is a DOM; elsewhere any string passes). */
function parses(selector: string): boolean {
  if (typeof document === 'undefined') return true;
  try {
    document.createDocumentFragment().querySelector(selector);
    return true;
  } catch {
    return false;
  }
}

const RISKY_SHAPE = `an array of { selector, kind } with kind ${oneOf(RISK_MARKS)}`;

/** `risky: [{ selector, kind }]`: every rule a parsable selector and a known kind. */
function risky(v: unknown): RiskyRule[] | undefined {
  if (v === undefined) return undefined;
  if (!Array.isArray(v)) fail('risky', v, RISKY_SHAPE);
  return v.map((r: unknown, i) => {
    if (!r || typeof r !== 'object' || Array.isArray(r)) fail(`risky[${i}]`, r, 'an object { selector, kind }');
    const { selector, kind } = r as { selector?: unknown; kind?: unknown };
    if (typeof selector !== 'string' || !selector.trim()) fail(`risky[${i}].selector`, selector, 'a CSS selector');
    if (!parses(selector)) fail(`risky[${i}].selector`, selector, 'a CSS selector the browser can parse');
    if (typeof kind !== 'string' || !(RISK_MARKS as readonly string[]).includes(kind)) fail(`risky[${i}].kind`, kind, oneOf(RISK_MARKS));
    return { selector: selector.trim(), kind: kind as RiskyRule['kind'] };
  });
}

const REDACT_SHAPE = "an array of CSS selectors, '/pattern/flags' strings or RegExp objects";

/** `redact: [selector | '/pattern/flags' | RegExp]`: selectors that parse, patterns that compile and match something. */
function redaction(v: unknown): Redaction {
  const out: Redaction = { selectors: [], patterns: [] };
  if (v === undefined) return out;
  if (!Array.isArray(v)) fail('redact', v, REDACT_SHAPE);
  v.forEach((entry: unknown, i) => {
    if (!(entry instanceof RegExp) && (typeof entry !== 'string' || !entry.trim()))
      fail(`redact[${i}]`, entry, "a CSS selector, a '/pattern/flags' string or a RegExp");
    let parsed: ReturnType<typeof redactionEntry>;
    try {
      parsed = redactionEntry(entry as string | RegExp);
    } catch {
      fail(`redact[${i}]`, entry, 'a regular expression that compiles');
    }
    if ('pattern' in parsed) {
      const problem = patternProblem(parsed.pattern);
      if (problem) fail(`redact[${i}]`, entry, `a pattern that matches some text (this one ${problem})`);
      out.patterns.push(parsed.pattern);
    } else {
      if (!parses(parsed.selector)) fail(`redact[${i}]`, entry, "a CSS selector the browser can parse (or a '/pattern/flags' string)");
      out.selectors.push(parsed.selector);
    }
  });
  return out;
}

/** Checks a whole init config; throws an InitError on the first bad field. */
export function parseInit(config: unknown): ParsedInit {
  if (config === undefined || config === null) config = {};
  if (typeof config !== 'object' || Array.isArray(config)) fail('config', config, 'an object');
  const c = config as Record<string, unknown> & InitConfig;

  const lang = text('lang', c.lang, "a language tag such as 'en' or 'es'", LANG_TAG);
  /** A field that, when given, must be of this type. */
  const typed = (field: keyof InitConfig, type: string, expected: string): void => {
    if (c[field] !== undefined && typeof c[field] !== type) fail(field, c[field], expected);
  };
  typed('autoOpen', 'boolean', 'true or false');
  typed('instructions', 'string', 'a string');
  if (c.tools !== undefined && !Array.isArray(c.tools)) fail('tools', c.tools, 'an array of { name, description, parameters, handler }');
  typed('confirm', 'function', 'a function');
  strings('allowedActions', c.allowedActions);
  strings('deny', c.deny);
  const rules = risky(c.risky);
  const redact = redaction(c.redact);
  typed('webmcp', 'boolean', 'true or false');
  if (c.recordings !== undefined) {
    if (!Array.isArray(c.recordings)) fail('recordings', c.recordings, "an array of recordings (the JSON of a run's result.recording)");
    c.recordings.forEach((r: unknown, i) => {
      const problem = recordingProblem(r);
      if (problem) fail(`recordings[${i}]`, r, `a recording (${problem})`);
    });
  }

  // Only its shape here (the loader carries this code, for every page view): the agent checks the rest (./knowledge-check.ts).
  const k = c.knowledge;
  if (k !== undefined && (!k || typeof k !== 'object' || Array.isArray(k))) fail('knowledge', k, 'an object { routes?, llmsTxt? }');

  const site: SiteConfig = {};
  for (const k of SITE_KEYS) if (c[k] !== undefined) (site as Record<string, unknown>)[k] = c[k];
  if (rules) site.risky = rules;
  const model = text('model', c.model);
  const proxy = text('proxy', c.proxy, "the proxy's URL, such as 'https://proxy.example'", /^https?:\/\/[^/\s]+/i);
  const token = text('token', c.token, 'a site token (a non-empty string)');
  const framesIssue = framesProblem(c.frames);
  if (framesIssue) fail('frames', c.frames, framesIssue);
  return {
    frames: ((c.frames as string[] | undefined) ?? []).map((o) => new URL(o).origin),
    site,
    ui: {
      theme: pick('theme', c.theme, THEMES),
      launcherText: text('launcherText', c.launcherText),
      position: pick('position', c.position, POSITIONS),
      lang,
      recordings: c.recordings?.length ? c.recordings : undefined,
      suggestions: strings('suggestions', c.suggestions),
    },
    autoOpen: c.autoOpen === true,
    runDefaults: { model, lang, proxy: proxy?.replace(/\/+$/, ''), token },
    redaction: redact,
    unknown: Object.keys(c).filter((k) => !INIT_KEYS.includes(k)),
  };
}
