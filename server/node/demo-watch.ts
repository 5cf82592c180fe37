/**
 * "Watch it work" on a demo page of a proxy with no model: a bar at the top of the page that says
 * a model is needed for new tasks (and which variable to set), with a button that replays the
 * task the demo ships solved (`<demo>.recording.json` beside the page) through the page's own
 * pagehand — no model call, the panel showing each step as a run does.
 *
 * @example
 * const bar = watchItWork(await readFile('server/demo/todo-list.recording.json', 'utf8'));
 * html.replace('<!--pagehand-embed-->', bar + embed);
 */
import { NO_PROVIDER_FIX } from '../../common/no-provider';
import { recordingProblem, type Recording } from '../../common/recording';
import { escapeHtml } from './escape-html';

/** The bar and its script, or '' when `json` is not a recording pagehand can replay (a broken file hides the offer, never the page). */
export function watchItWork(json: string): string {
  let recording: Recording;
  try {
    recording = JSON.parse(json) as Recording;
  } catch {
    return '';
  }
  if (recordingProblem(recording)) return '';
  // JSON inside a script element: "</" would end it early, and U+2028/9 break older parsers.
  const data = JSON.stringify(recording)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return `<aside id="pagehand-watch" aria-label="pagehand demo" style="position:sticky;top:0;z-index:1;margin:0 0 1rem;padding:.6rem .9rem;background:#fff4e5;border:1px solid #f0b35b;border-radius:6px;font:14px/1.45 system-ui,sans-serif;color:#1d1d1f">
<p style="margin:0 0 .4rem"><strong>No model is set up on this server</strong>, so pagehand cannot take new tasks here yet. To give it one: ${escapeHtml(NO_PROVIDER_FIX)}</p>
<p style="margin:0"><button type="button" id="pagehand-watch-button" style="font:inherit;font-weight:600;padding:.25rem .8rem;margin:0;width:auto">&#9654; Watch it work</button>
replays a task pagehand solved on this page before, with no model call: <em id="pagehand-watch-task">${escapeHtml(recording.task)}</em></p>
</aside>
<script type="application/json" id="pagehand-watch-recording">${data}</script>
<script>
document.getElementById('pagehand-watch-button').addEventListener('click', function () {
  var recording = JSON.parse(document.getElementById('pagehand-watch-recording').textContent);
  var ph = window.pagehand;
  if (!ph) return alert('pagehand has not loaded on this page: is dist/ built (npm run build)?');
  ph.open();
  // repair: false — a step that no longer matches ends the replay and says so, with no model call.
  ph.replay(recording, { repair: false });
});
</script>`;
}
