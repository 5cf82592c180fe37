/**
 * The flag loop of `pagehand run` and `pagehand test`, once: Node's util.parseArgs (strict, so
 * a flag the command does not know is an error), with its errors told in the runner's words
 * (docs/runner.md lists them). `--flag value` and `--flag=value` both work; `--` ends the flags.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

export interface FlagSpec {
  /** Flags that take a value; given twice, the last one counts. */
  values: readonly string[];
  /** Flags that take a value and may be given more than once. */
  lists?: readonly string[];
  /** Flags that take no value. */
  booleans: readonly string[];
}

export interface Flags {
  values: Record<string, string>;
  lists: Record<string, string[]>;
  /** The boolean flags given. */
  flags: Set<string>;
  /** What is not a flag, in order (after `--` too). */
  words: string[];
}

type Options = NonNullable<ParseArgsConfig['options']>;
type Token = NonNullable<ReturnType<typeof parseArgs>['tokens']>[number];

/**
 * argv's flags and words, or the first mistake in argv's order as the message to print.
 * `unknown` words a flag the command does not know (the argument as given).
 */
export function readFlags(argv: readonly string[], spec: FlagSpec, unknown: (arg: string) => string): Flags | string {
  const options: Options = {};
  for (const name of spec.values) options[name] = { type: 'string' };
  for (const name of spec.lists ?? []) options[name] = { type: 'string', multiple: true };
  for (const name of spec.booleans) options[name] = { type: 'boolean' };
  const args = [...argv];
  let parsed: ReturnType<typeof parseArgs> & { tokens: Token[] };
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: true, tokens: true });
  } catch (e) {
    // parseArgs says what is wrong in its own words; the tokens (read without its checks) say
    // which argument it was, for the message the runner has always given.
    const { tokens } = parseArgs({ args, options, strict: false, allowPositionals: true, tokens: true });
    return firstMistake(tokens, args, options, unknown) ?? String((e as Error)?.message ?? e);
  }
  // The one mistake parseArgs lets through: an empty value (`--url=`, `--url ""`).
  const empty = firstMistake(parsed.tokens, args, options, unknown);
  if (empty) return empty;
  const out: Flags = { values: {}, lists: {}, flags: new Set(), words: parsed.positionals };
  for (const [name, v] of Object.entries(parsed.values)) {
    if (Array.isArray(v)) out.lists[name] = v.map(String);
    else if (typeof v === 'string') out.values[name] = v;
    else if (v === true) out.flags.add(name);
  }
  return out;
}

/** The first flag in argv that strict parseArgs refuses, or whose value is empty, in the runner's words. */
function firstMistake(tokens: readonly Token[], args: readonly string[], options: Options, unknown: (arg: string) => string): string | undefined {
  for (const t of tokens) {
    if (t.kind !== 'option') continue;
    const type = Object.prototype.hasOwnProperty.call(options, t.name) ? options[t.name]!.type : undefined;
    if (!type) {
      const arg = args[t.index]!;
      // A word such as "-5 items" reads as short flags to parseArgs: say how to give it.
      return arg.startsWith('--') ? unknown(arg) : `${unknown(arg)}; a word that starts with - goes after --`;
    }
    if (type === 'boolean') {
      if (t.value !== undefined) return `--${t.name} takes no value`;
      continue;
    }
    if (t.value === undefined || t.value === '') return `--${t.name} needs a value`;
    // `--url --json`: parseArgs does not take a flag-like word as the value. Not echoed: it may be a token.
    if (!t.inlineValue && t.value.length > 1 && t.value.startsWith('-'))
      return `--${t.name} needs a value (to give one that starts with -, write --${t.name}=-…)`;
  }
  return undefined;
}
