/**
 * Shared by the names/roles/states browser tests: puts many small fixtures ("cases") into one
 * page, so one Chromium page load checks dozens of spec rules, and exposes the describer and
 * readStates (which the public bundle reaches only through the map) to the page.
 */
import { sourceModules } from './source-modules';

let modules: Promise<string> | undefined;

/** An IIFE defining `window.__phDescribe = { createDescriber, readStates }`, built from source. */
export function describeModules(): Promise<string> {
  return (modules ??= sourceModules(
    "import { createDescriber as make, type DescriberOptions } from './client/page/names/describe';\n" +
      "import { readStates as read } from './client/page/names/state';\n" +
      "import { pageSettings } from './client/safety/settings';\n" +
      '// As a page with nothing configured reads them (no deny selectors).\n' +
      'const settings = pageSettings();\n' +
      'const createDescriber = (o?: DescriberOptions) => make(settings, o);\n' +
      'const readStates = (el: Element, role: string, focused: Element | null) => read(el, role, focused, settings.zones);\n' +
      '(window as any).__phDescribe = { createDescriber, readStates };\n',
    'describe-test-entry.ts',
  ));
}

export interface Case {
  title: string;
  /** Markup of the case; the element under test carries `data-t` (unless `target` says). */
  html: string;
  /** Script run in the page after all cases are in (e.g. to attach shadow roots, set values).
   *  `sec` is the case's wrapper <div>. */
  setup?: string;
  /** Expression (with `sec` in scope) that returns the element under test. */
  target?: string;
}

/** One page holding every case, each in `<div data-case="i">`; setups run in order. */
export function casesPage(cases: readonly Case[], css = ''): string {
  const sections = cases.map((c, i) => `<div data-case="${i}">\n${c.html}\n</div>`).join('\n');
  const setups = cases.map((c, i) => (c.setup ? `{ const sec = document.querySelector('div[data-case="${i}"]'); ${c.setup} }` : '')).join('\n');
  const targets = cases.map((c, i) => `(sec) => (${c.target ?? "sec.querySelector('[data-t]')"}), // ${i}`).join('\n');
  return `<!doctype html><html><head><meta charset="utf-8"><title>cases</title><style>${css}</style></head><body>
${sections}
<script>
${setups}
window.__caseTargets = [
${targets}
];
window.__caseTarget = (i) => window.__caseTargets[i](document.querySelector('div[data-case="' + i + '"]'));
</script></body></html>`;
}
