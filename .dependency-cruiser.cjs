/**
 * The import layers, checked in `npm test` (npm run check). From the bottom: the page layer
 * (client/page) knows the DOM and imports nothing above it; the model client (client/llm)
 * knows no DOM; the page's own tools (client/webmcp: WebMCP, tool forms) read the page as the
 * map does; the agent (client/agent, with the recorder beside its loop in agent/recording) uses
 * those; the replay driver (client/replay) uses the agent, which never imports it (the entry
 * lends it); the panel (client/ui) uses the agent's public types and run handle; entries
 * (client/*.ts, entries, loader, embed, userscript) sit on top. common/ holds the pure rules both the bundle and
 * the CLI check (recordings, answer schemas, secrets) and imports nothing else. server/ and cli/
 * import nothing from client/ but its built files (and type-only declarations); no browser file
 * imports server or build code. No cycles, dynamic imports included.
 */
const ENTRIES = '^client/[^/]+\\.tsx?$|^client/(entries|loader|embed|userscript)/';
const ABOVE_PAGE = '^client/(agent|llm|ui|replay|webmcp|safety)/|' + ENTRIES;
const ABOVE_SITE_TOOLS = '^client/(agent|ui|replay|safety)/|' + ENTRIES;

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle ties modules so that none can be read, tested or loaded alone.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'page-imports-nothing-above',
      severity: 'error',
      comment: 'client/page knows the DOM: the agent, the model client, the panel and the entries build on it, never the other way.',
      from: { path: '^client/page/' },
      to: { path: ABOVE_PAGE },
    },
    {
      name: 'llm-knows-no-dom',
      severity: 'error',
      comment: 'client/llm talks to the proxy: no page, agent or panel code.',
      from: { path: '^client/llm/' },
      to: { path: '^client/(page|agent|ui|replay|webmcp|safety)/|' + ENTRIES },
    },
    {
      name: 'safety-below-agent',
      severity: 'error',
      comment:
        "client/safety judges what a call does and keeps what must not leave the page: it reads the page and the page's tools, and knows of the agent only its public types.",
      from: { path: '^client/safety/' },
      to: { path: '^client/(ui|replay|llm)/|^client/agent/(?!public-types\\.ts$)|' + ENTRIES },
    },
    {
      name: 'site-tools-below-agent',
      severity: 'error',
      comment: "The page's own tools are read like the page: the agent offers them, they know nothing of it.",
      from: { path: '^client/webmcp/' },
      to: { path: ABOVE_SITE_TOOLS },
    },
    {
      name: 'agent-below-replay-panel-entries',
      severity: 'error',
      comment: 'The agent is used by the replay driver, the panel and the entries; it imports none of them.',
      from: { path: '^client/agent/' },
      to: { path: '^client/(ui|replay)/|' + ENTRIES },
    },
    {
      name: 'replay-below-panel-entries',
      severity: 'error',
      from: { path: '^client/replay/' },
      to: { path: '^client/ui/|' + ENTRIES },
    },
    {
      name: 'panel-uses-agent-public-types',
      severity: 'error',
      comment: "The panel shows a run through its handle and the agent's public types; it reaches into no page, model or entry code.",
      from: { path: '^client/ui/' },
      // The one page-layer name it shares: the attribute that marks the agent's own UI.
      to: { path: '^client/(page|llm|replay|webmcp|safety)/|^client/agent/(?!public-types\\.ts$)|' + ENTRIES, pathNot: '^client/page/ui-attr\\.ts$' },
    },
    {
      name: 'browser-code-imports-no-server-or-build-code',
      severity: 'error',
      from: { path: '^client/' },
      to: { path: '^(server/|cli/|bench/)|^build(-embed|-bookmarklet)?\\.ts$' },
    },
    {
      name: 'common-stands-alone',
      severity: 'error',
      comment: 'Pure rules shared by the bundle and the CLI: they import nothing but each other.',
      from: { path: '^common/' },
      to: { path: '^(client|server|cli|bench|tests)/|^build(-embed|-bookmarklet)?\\.ts$' },
    },
    {
      name: 'server-and-cli-apart-from-client',
      severity: 'error',
      comment: 'The proxy and the CLI use the bundle as built files; type-only imports are declarations, not code.',
      from: { path: '^(server|cli)/' },
      to: { path: '^client/', dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.json' },
    // Type-only imports are seen (and kept out of the cycle count only where marked type-only).
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|tests/fixtures)/' },
  },
};
