/**
 * page-agent, the peer we measure against, loaded into the benchmark page.
 *
 * Its per-step observation is `new PageController(config).getBrowserState()` from
 * @page-agent/page-controller, the DOM-only half of page-agent (the `page-agent` package adds the
 * chat panel and the LLM client, which the observation does not use). We bundle just that package
 * into an IIFE that puts the class on `window.__pageAgentPeer`; bench/lib/page-probe.ts drives it.
 * The optional visual mask (a lazy import, off unless `enableMask`) stays off.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { bundleForPage } from './bundle-for-page';

// The package's exports map hides package.json, so read it by path.
const pkgPath = fileURLToPath(new URL('../../node_modules/@page-agent/page-controller/package.json', import.meta.url));

export interface PeerBundle {
  source: string;
  version: string;
}

export async function loadPageAgentPeer(): Promise<PeerBundle> {
  const version = (JSON.parse(await readFile(pkgPath, 'utf8')) as { version: string }).version;
  const source = await bundleForPage({
    name: `page-agent-peer-${version}`,
    contents: "import { PageController } from '@page-agent/page-controller';\n(window as any).__pageAgentPeer = { PageController };\n",
  });
  return { source, version };
}
