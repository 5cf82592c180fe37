/**
 * The npm entry as a site owner uses it: a tiny page whose own bundle does
 * `import { run, init } from 'pagehand'` — the package installed (a node_modules link to this
 * repository), type-checked against its declarations and bundled with esbuild — runs a
 * scripted task in Chromium.
 */
import { build } from 'esbuild';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, hasText, latestMap, MODELS, refFor, startAgentStack, type AgentStack } from './agent-harness';
import { origin, useSession } from './harness';

const repo = fileURLToPath(new URL('../..', import.meta.url));

const CONSUMER = `import { run, init, type PagehandApi, type RunResult, type Screenshot, type ScreenshotOptions } from 'pagehand';

const cfg = (window as unknown as { __cfg: { proxy: string; token: string; model: string } }).__cfg;
const api: PagehandApi = init({ instructions: 'Our counter only counts up.' });
const handle = run('Add one to the counter', { ...cfg, ui: false });
const result: Promise<RunResult> = handle.result;
const shoot: (o?: ScreenshotOptions) => Promise<Screenshot> = api.screenshot;
(window as unknown as { __npm: unknown }).__npm = {
  result,
  sameApi: api === (window as unknown as { pagehand: unknown }).pagehand,
  current: api.current() === handle,
  version: api.version,
  shoots: typeof shoot === 'function',
};
`;

const session = useSession();
let stack: AgentStack;
let dir: string;
beforeAll(async () => {
  stack = await startAgentStack();
  // A site's project with pagehand installed.
  dir = await mkdtemp(join(tmpdir(), 'pagehand-npm-'));
  await mkdir(join(dir, 'node_modules'));
  await symlink(repo, join(dir, 'node_modules', 'pagehand'), 'dir');
  await writeFile(join(dir, 'main.ts'), CONSUMER);
});
afterAll(async () => {
  await stack?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("import { run, init } from 'pagehand'", () => {
  it('type-checks against the package declarations', () => {
    const program = ts.createProgram([join(dir, 'main.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
      types: [],
    });
    const errors = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(errors).toEqual([]);
    const resolved = program
      .getSourceFiles()
      .map((f) => f.fileName)
      .find((f) => f.endsWith('/dist/esm/index.d.ts'));
    expect(resolved).toBeDefined();
  });

  it('bundles with esbuild and runs a task in the page', { timeout: 90_000 }, async () => {
    const out = await build({
      entryPoints: [join(dir, 'main.ts')],
      bundle: true,
      format: 'iife',
      platform: 'browser',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    // The package resolved through its "exports" to the ESM build (esbuild names it by its real path).
    const inputs = Object.keys(out.metafile!.inputs);
    expect(
      inputs.filter((p) => /(^|\/)dist\/esm\/index\.js$/.test(p)),
      inputs.join('\n'),
    ).toHaveLength(1);
    const script = out.outputFiles[0]!.text;

    stack.setPolicy((req) => {
      const map = latestMap(req);
      if (!hasText(map, 'Count: 1')) return call('click', { ref: refFor(map, 'button', 'Add one') }, 'goal: add one');
      return call('done', { summary: 'The counter shows 1.' });
    });
    const page = await session.context.newPage();
    page.on('pageerror', (e) => console.error('[page error]', e.message));
    // The page comes from the static server (a routed document would count as a public address
    // and be refused the loopback proxy); only the site's bundle is handed over by a route.
    await page.route(`${origin()}/fixtures/delivery/npm-site.bundle.js`, (r) => r.fulfill({ contentType: 'text/javascript; charset=utf-8', body: script }));
    await page.addInitScript({ content: `window.__cfg = ${JSON.stringify({ proxy: stack.proxyUrl, token: stack.token, model: MODELS.openai })};` });
    await page.goto(`${origin()}/fixtures/delivery/npm-site.html`);

    const npm = await page.evaluate(async () => {
      const n = (window as any).__npm;
      return { result: await n.result, sameApi: n.sameApi, current: n.current, version: n.version, shoots: n.shoots };
    });
    expect(npm.result).toMatchObject({ ok: true, summary: 'The counter shows 1.', steps: 2 });
    expect(npm.sameApi).toBe(true);
    expect(npm.current).toBe(true);
    expect(npm.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(npm.shoots).toBe(true);
    expect(await page.evaluate(() => (window as any).count)).toBe(1);
    // init(config) reached the loop: the site's instructions are in the system prompt.
    const system = stack
      .requests()
      .at(-1)!
      .messages.find((m) => m.role === 'system')!.text;
    expect(system).toContain('Our counter only counts up.');
    await page.close();
  });
});
