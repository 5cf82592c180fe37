/**
 * The userscript's entry (dist/pagehand.user.js): the GM environment first, then — in the top
 * page — the same entry as pagehand.js. build.ts adds the metadata block.
 *
 * The manager runs it in every frame too. In a frame it shows nothing and runs nothing of its
 * own: it only answers a parent page where this same installation runs, proving its key
 * (client/page/frames/sealed-*.ts), so the agent up there can read and act in frames from other
 * origins. The token never leaves this script's scope.
 */
import { restoreCurrentScript, userscriptConfig, userscriptEnv, userscriptKept, userscriptThreads } from './env';
import { holdFrameSecret } from '../page/frames/secret';
import { answerUserscriptParent } from '../page/frames/userscript-frame';
import { lendPageLazy } from '../page/lazy';
import { targetFacts } from '../safety/facts';
import { pageSettings } from '../safety/settings';

holdFrameSecret(userscriptConfig.token, userscriptConfig.proxy);

// `self`, not `window`: a manager's sandbox may hand the script a wrapper as `window`.
if (window.top !== window.self) {
  restoreCurrentScript();
  // A frame acts for its parent with the same hands (a custom select in a payment frame).
  lendPageLazy(() => import('../on-demand'));
  answerUserscriptParent(pageSettings(), targetFacts);
} else {
  // Inlined by the build (one file): the entry runs right after this script, before any page script.
  void import('../start').then((m) => m.startPagehand(userscriptEnv, userscriptThreads, userscriptKept)).finally(restoreCurrentScript);
}
