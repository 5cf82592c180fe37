/**
 * The embed's agent, panel first: the overlay (client/ui, Preact) starts here, in the agent's
 * entry file, and the engine (client/engine.ts: map, actions, loop, safety) is imported at the
 * same moment, as a file of its own that the loader began fetching with this one. The stub hands
 * its open/close/toggle (and init's overlay settings) to the overlay at once, so the visitor
 * types while the engine arrives; Send waits for it (the overlay shows that), and an engine that
 * fails to load is said in the panel and rejects `pagehand.ready`.
 */
import { pageEnv, untrustedPage } from '../agent/env';
import { createUi } from '../ui/index';
import { sessionThreadStore } from '../ui/storage';
import { adoptHandoff } from './adopt';

const handoff = adoptHandoff();
// Started before the panel paints: the engine's files were requested by the loader with this one.
const engine = import('../engine');
// A session token made for the user's own pagehand: a stranger's page (see the engine's pageEnv).
const stranger = untrustedPage(pageEnv({}, null, handoff.defaults.token));
const ui = createUi({
  lang: handoff.defaults.lang,
  position: handoff.defaults.position,
  siteInstalled: true,
  stranger,
  // The site's own page keeps the conversation in the tab, as it keeps a run.
  ...(stranger ? {} : { threads: sessionThreadStore() }),
});
// A site embed shows its launcher, or the panel as the visitor left it in this tab.
if (handoff.defaults.embed) ui.launcher();
// The overlay takes the stub's open/close/toggle over now: it opens the panel if the visitor asked for it (or hides it after a close()).
handoff.showPanel(ui);
engine
  .then((m) => m.startEngine({ ui, defaults: handoff.defaults, script: null, handoff }))
  .catch((e: unknown) => {
    ui.agentFailed(e);
    handoff.engineFailed(e);
  });
