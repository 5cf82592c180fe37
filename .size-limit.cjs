// Size budgets for what a site's visitors download, checked in `npm test` (npm run check:size,
// after the build): a change that adds bytes every visitor pays fails here and says by how much.
// The agent's file names carry content hashes; the build lists the current ones.
const { readFileSync } = require('node:fs');

const agent = JSON.parse(readFileSync(`${__dirname}/dist/pagehand-agent.files.json`, 'utf8'));

module.exports = [
  {
    name: 'embed loader (every page view)',
    path: 'dist/pagehand-loader.js',
    gzip: true,
    limit: '12 KB',
  },
  {
    // The panel and the engine load together when the launcher is opened, until they are split.
    name: 'agent loaded when the panel opens',
    path: [agent.entry, ...agent.eager].map((f) => `dist/${f}`),
    brotli: true,
    limit: '100 KB',
  },
];
