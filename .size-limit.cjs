// Size budgets for what a site's visitors download, checked in `npm test` (npm run check:size,
// after the build): a change that adds bytes every visitor pays fails here and says by how much.
// The agent's file names carry content hashes; the build lists the current ones.
const { readFileSync } = require('node:fs');

const agent = JSON.parse(readFileSync(`${__dirname}/dist/pagehand-agent.files.json`, 'utf8'));
const bookmarklet = JSON.parse(readFileSync(`${__dirname}/dist/pagehand-bookmarklet.files.json`, 'utf8'));

module.exports = [
  {
    name: 'embed loader (every page view)',
    path: 'dist/pagehand-loader.js',
    gzip: true,
    limit: '12 KB',
  },
  {
    // Opening the launcher loads the panel first (the agent's entry and what it imports: overlay, Preact)…
    name: 'panel on open',
    path: [agent.entry, ...agent.eager].map((f) => `dist/${f}`),
    gzip: true,
    limit: '25 KB',
  },
  {
    // …and the engine beside it (map, actions, loop, safety); it grows only through files loaded on first use.
    name: 'engine on open',
    path: agent.engine.map((f) => `dist/${f}`),
    brotli: true,
    limit: '100 KB',
  },
  {
    // The bookmarklet's click loads the panel first, from one file (overlay, Preact, the stand-in `pagehand`)…
    name: 'bookmarklet first file (panel)',
    path: `dist/${bookmarklet.first}`,
    gzip: true,
    limit: '25 KB',
  },
  {
    // …and imports its engine from the proxy at once (the same bar as the embed's engine on open).
    name: 'bookmarklet engine',
    path: bookmarklet.engine.map((f) => `dist/${f}`),
    brotli: true,
    limit: '100 KB',
  },
];
