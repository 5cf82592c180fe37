/**
 * Builds the framework fixture apps for the action tests with esbuild: React 19, the same React
 * app again on React 18, the drag libraries' fixtures (SortableJS, @dnd-kit), and Vue 3 (full build with the template compiler, so `v-model` and
 * `<Teleport>` are the real runtime directives) into tests/fixtures/actions/dist/. Called from
 * global-setup; also runnable alone: `tsx tests/browser/build-fixtures.ts`.
 */
import { build, type BuildOptions } from 'esbuild';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

const common: BuildOptions = {
  absWorkingDir: root,
  outdir: 'tests/fixtures/actions/dist',
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: ['chrome100'],
  minify: true,
  jsx: 'automatic',
  jsxImportSource: 'react',
  logLevel: 'warning',
};

// React 18 lives in its own package folder (react-dom@18 needs react@18 as a peer, which
// cannot sit beside the root's React 19); aliasing swaps it in so one app source serves both.
const react18 = './tests/fixtures/actions/react18/node_modules';

/**
 * Component-library fixtures (select widgets that hide the native <select>, React selects,
 * rich-text editors) in one esbuild call, into the gitignored tests/fixtures/widgets/dist/.
 */
const widgetSrc = 'tests/fixtures/widgets/src';
const widgetDist = 'tests/fixtures/widgets/dist';
const widgetEntries: Record<string, string> = {
  selects: `${widgetSrc}/selects.ts`,
  'selects-style': `${widgetSrc}/selects.css`,
  'react-widgets': `${widgetSrc}/react-widgets.tsx`,
  editors: `${widgetSrc}/editors.tsx`,
  'editors-style': `${widgetSrc}/editors.css`,
  'jquery-widgets': `${widgetSrc}/jquery-widgets.ts`,
  'jquery-widgets-style': `${widgetSrc}/jquery-widgets.css`,
};

/**
 * The widget bundles take seconds (Ant Design and MUI are large) and their inputs rarely change:
 * rebuild only when a source, the installed versions (package-lock.json) or this file is newer.
 */
function widgetsUpToDate(): boolean {
  const mtime = (f: string) => statSync(join(root, f)).mtimeMs;
  try {
    const outputs = Object.entries(widgetEntries).map(([name, src]) => mtime(`${widgetDist}/${name}${src.endsWith('.css') ? '.css' : '.js'}`));
    const inputs = [...readdirSync(join(root, widgetSrc)).map((f) => `${widgetSrc}/${f}`), 'package-lock.json', 'tests/browser/build-fixtures.ts'].map(mtime);
    return Math.min(...outputs) > Math.max(...inputs);
  } catch {
    return false; // an output is missing
  }
}

async function buildWidgetFixtures(): Promise<void> {
  if (widgetsUpToDate()) return;
  await build({
    ...common,
    outdir: widgetDist,
    entryPoints: widgetEntries,
    // Lexical ships separate development and production builds, chosen by this condition.
    conditions: ['production'],
    loader: { '.png': 'dataurl', '.gif': 'dataurl' },
    define: { 'process.env.NODE_ENV': '"production"' },
  });
}

export async function buildFixtureApps(): Promise<void> {
  const widgets = buildWidgetFixtures();
  await build({
    ...common,
    entryPoints: {
      'react-app': 'tests/fixtures/actions/src/react-app.tsx',
      'vue-app': 'tests/fixtures/actions/src/vue-app.ts',
      // Drag libraries as pages use them: SortableJS (native DnD and its pointer fallback), @dnd-kit.
      'drag-sortable': 'tests/fixtures/actions/src/drag-sortable.ts',
      'drag-dndkit': 'tests/fixtures/actions/src/drag-dndkit.tsx',
      // Handlers kept on the node by React and Vue (delegation): map-delegated.test.ts.
      'react-delegated': 'tests/fixtures/actions/src/react-delegated.tsx',
      'vue-delegated': 'tests/fixtures/actions/src/vue-delegated.ts',
    },
    alias: { vue: 'vue/dist/vue.esm-bundler.js' },
    define: {
      'process.env.NODE_ENV': '"production"',
      __VUE_OPTIONS_API__: 'true',
      __VUE_PROD_DEVTOOLS__: 'false',
      __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
    },
  });
  await build({
    ...common,
    entryPoints: { 'react18-app': 'tests/fixtures/actions/src/react18-app.tsx', 'react18-delegated': 'tests/fixtures/actions/src/react-delegated.tsx' },
    alias: { react: `${react18}/react`, 'react-dom': `${react18}/react-dom` },
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  await widgets;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildFixtureApps();
