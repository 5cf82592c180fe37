/**
 * bench:loop's page, served for every bench that measures a step on it (loop, loop-profile,
 * same-output, map-cpu, map-reads): the generated 5k-element page (seed 7, with its frame) and a
 * counter at the top whose text a click changes, so each step sees a changed page.
 */
import { generatePage } from './generate-page';
import { servePages, type PageServer } from './serve-pages';

/** The counter the scripted model clicks; each click changes the page. */
export const LOOP_COUNTER = `<section aria-label="Bench counter" style="position:relative;z-index:5;background:#fff;padding:6px">
<button id="add" type="button">Add one</button> <span id="n">Count: 0</span></section>
<script>let n = 0; document.getElementById('add').addEventListener('click', () => { document.getElementById('n').textContent = 'Count: ' + (++n); });</script>`;

/** Serves `/5k.html` (with `counter` first in its body) and `/frame.html` on 127.0.0.1. */
export function serveLoopPage(counter: string = LOOP_COUNTER): Promise<PageServer> {
  const page5k = generatePage({ targetElements: 5_000, seed: 7, framePath: '/frame.html' });
  return servePages(
    new Map([
      ['/5k.html', page5k.html.replace('<body>', `<body>${counter}`)],
      ['/frame.html', page5k.frameHtml],
    ]),
  );
}
