/**
 * The site's selectors, checked once: those that parse are kept, the others reported (init
 * returns them as `ignoredDeny`, never applies them). Small on purpose: the embed's loader
 * runs the same check before the agent arrives.
 */
export function checkedSelectors(selectors: readonly string[]): { ok: string[]; ignored: string[] } {
  const ok: string[] = [];
  const ignored: string[] = [];
  for (const s of selectors) {
    try {
      document.createDocumentFragment().querySelector(s);
      ok.push(s);
    } catch {
      ignored.push(s);
    }
  }
  return { ok, ignored };
}
