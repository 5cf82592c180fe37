/**
 * The headless runner's page-world part (dist/pagehand.runner-page.js). The runner's bundle
 * runs in an isolated world (cli/isolated-world.ts), out of the page's reach; what it needs
 * from the page's own world is only what page scripts do from document start — closed shadow
 * roots, listener-only click targets (jQuery's among them), the page's pending requests and short timers, the tools
 * the page registers with `document.modelContext`. This part runs there, before the page's
 * scripts, watches those, and answers the isolated world's questions through DOM events. It
 * holds nothing of the run's and adds no globals beyond `document.modelContext` (WebMCP's, for
 * the page to register its tools with; the browser's own, if it has one, wrapped).
 */
import { installPageWorldHooks } from '../page/dom/hooks';
import { answerJqueryProbes } from '../page/dom/jquery-probe';
import { answerActivityProbes } from '../page/settle/settle';
import { answerToolRequests } from '../webmcp/runner-registry';

installPageWorldHooks();
answerJqueryProbes();
answerActivityProbes();
answerToolRequests();
