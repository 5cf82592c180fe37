/**
 * The loader's launcher wears the overlay's own stylesheet, cut down at build time to the
 * rules a launcher needs (the host, the theme variables, buttons, focus, `.launcher…`): it
 * looks exactly like the agent's launcher and follows it when the overlay's styles change,
 * without the panel's rules on every page view. Pure, so unit-tested directly.
 */

/** Top-level rules kept, by how their selector (or at-rule) starts. */
const KEEP = [':host', '.ph', '@media (prefers-color-scheme', '*,', 'button,', 'button{', 'button:hover', ':focus-visible', '.launcher'];

/** The stylesheet's top-level rules, each whole (braces balanced), in order. */
export function topLevelRules(css: string): string[] {
  const rules: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < css.length; i++) {
    const ch = css[i];
    if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) {
      rules.push(css.slice(start, i + 1).trim());
      start = i + 1;
    }
  }
  return rules;
}

export function launcherCss(css: string): string {
  return topLevelRules(css)
    .filter((rule) => KEEP.some((k) => rule.startsWith(k)))
    .join('\n');
}
