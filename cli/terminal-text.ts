/**
 * Page text on the runner's terminal. A page controls much of what the runner prints (element
 * names, dialog messages, URLs, the model's summary of what it read), and a terminal obeys
 * control codes: a page could erase the line above and redraw a "Pay $900" question as
 * something else, move the cursor, write the clipboard (OSC 52), or reorder the text with bidi
 * overrides. Every string the runner prints goes through one of these two functions.
 */

/**
 * Whole escape sequences, as a terminal reads them: CSI (`ESC [` or C1 0x9B, parameters, one
 * final byte), OSC and the other string commands (`ESC ]`, `ESC P`, `ESC X`, `ESC ^`, `ESC _`
 * or their C1 forms, up to BEL or ST — or to the end, unterminated), and two-byte escapes
 * (`ESC 7`, `ESC c`, charset selections with intermediates).
 */
const SEQUENCES =
  /(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?|\x1b[\x20-\x2f]*[\x30-\x7e]?/g;

/** Line and paragraph breaks (also the Unicode ones a terminal may or may not honour), tabs, form feeds. */
const BREAKS = /\r\n|[\n\r\t\v\f\u0085\u2028\u2029]/g;

/**
 * What is left that a terminal (or its renderer) would act on: C0 and DEL, C1, and the bidi
 * controls — embeddings and overrides U+202A–U+202E, isolates U+2066–U+2069, and the marks
 * U+200E, U+200F, U+061C — which can make text read in another order than it is stored.
 */
const CONTROLS = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export interface TerminalTextOptions {
  /** Keep line breaks (as `\n`): for text printed on lines of its own. Default: one line. */
  multiline?: boolean;
}

/**
 * The text as it may be printed: escape sequences removed whole, breaks turned into spaces (or
 * `\n` with `multiline`), every other control and bidi character removed.
 *
 * @example
 * safeForTerminal('Pay $9\x1b[2K\x1b[1A') // 'Pay $9'
 * safeForTerminal('a\r\nb', { multiline: true }) // 'a\nb'
 */
export function safeForTerminal(text: unknown, options: TerminalTextOptions = {}): string {
  return String(text ?? '')
    .replace(SEQUENCES, '')
    .replace(BREAKS, (b) => (options.multiline && b !== '\t' && b !== '\v' && b !== '\f' ? '\n' : ' '))
    .replace(CONTROLS, (c) => (c === '\n' ? c : ''));
}

/** Code points JSON.stringify leaves raw that a terminal would still act on (it escapes C0 itself). */
const JSON_RAW_CONTROLS = /[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * One JSON line (--json): the same data, every control character written as a `\uXXXX`
 * escape, so a consumer gets the page's text exactly and a terminal shows it inert.
 *
 * @example
 * jsonForTerminal({ name: 'a\u202Eb' }) // '{"name":"a\\u202eb"}'
 */
export function jsonForTerminal(value: unknown): string {
  return JSON.stringify(value).replace(JSON_RAW_CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
