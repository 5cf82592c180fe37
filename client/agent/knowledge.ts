/**
 * The site's knowledge (`init({ knowledge })`), as the prompt takes it. Pure.
 *
 * - Route instructions: the site owner's words for the pages whose path matches, read at each
 *   step, so they reach the prompt only on their route. Patterns are simple globs (`*`: any
 *   characters, `/` included), the same in every browser and in the runner: URLPattern's richer
 *   syntax is not in every browser pagehand runs in, and a pattern that meant one thing in one
 *   browser and another elsewhere would give instructions to the wrong pages.
 * - The site's `/llms.txt`: read once per run (agent/run.ts), cut to LLMS_MAX characters. On
 *   the site's own embed it is the site owner's text, like `init`'s instructions (but set apart
 *   and named as the site's file, not as rules); where the user brought pagehand it is the
 *   page's data, between the run's markers.
 */
import type { Knowledge } from './public-types';

/** The most of `/llms.txt` the prompt carries (about 1,500 tokens); the model can read the rest. */
export const LLMS_MAX = 6000;

const globs = new Map<string, RegExp>();

/** Whether `path` (a URL's pathname) matches the glob `pattern` as a whole. */
export function pathMatches(pattern: string, path: string): boolean {
  let re = globs.get(pattern);
  if (!re) {
    re = new RegExp(
      `^${pattern
        .split('*')
        .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
      's',
    );
    globs.set(pattern, re);
  }
  return re.test(path);
}

/** The instructions of every route whose pattern matches `path`, in the order given, or undefined. */
export function routeInstructions(knowledge: Knowledge | undefined, path: string): string | undefined {
  const hits = (knowledge?.routes ?? []).filter((r) => ([] as string[]).concat(r.match).some((m) => pathMatches(m, path))).map((r) => r.instructions.trim());
  return hits.length ? [...new Set(hits)].join('\n\n') : undefined;
}

/** What the run keeps of the site's `/llms.txt`: its text (cut), or that there was none, for one origin. */
export interface LlmsTxt {
  origin: string;
  text?: string;
  /** The file was longer than LLMS_MAX: the rest is at read {url: '/llms.txt', page}. */
  cut?: true;
}

/** The file as the run keeps it: its text cut to LLMS_MAX characters at a line's end when there is one. */
export function keepLlms(origin: string, text: string | undefined): LlmsTxt {
  const t = text?.replace(/\r\n?/g, '\n').trim();
  if (!t) return { origin };
  if (t.length <= LLMS_MAX) return { origin, text: t };
  const at = t.lastIndexOf('\n', LLMS_MAX);
  return { origin, text: t.slice(0, at > LLMS_MAX / 2 ? at : LLMS_MAX).trimEnd(), cut: true };
}

const MORE = 'The file goes on: read {url: "/llms.txt", page: 2} for the rest.';

/**
 * The site owner's file for the system prompt (the embed): set apart between its own lines, and
 * named as the site's description of itself — knowledge to use, not a change of these rules.
 */
export function llmsSystemPart(l: LlmsTxt | undefined): string {
  if (!l?.text) return '';
  return `\n\n# The site's llms.txt (from the site owner)\nWhat the site says about itself and where things are; pages it names can be read with read {url}.\n--- llms.txt ---\n${l.text}\n--- end of llms.txt ---${l.cut ? `\n${MORE}` : ''}`;
}

/** The same file as page data (a stranger's page): lines for a data block. */
export function llmsDataLines(l: LlmsTxt | undefined): string[] {
  if (!l?.text) return [];
  return [...l.text.split('\n'), ...(l.cut ? [MORE] : [])];
}
