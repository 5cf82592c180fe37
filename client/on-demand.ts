/**
 * What pagehand loads on first use, as one file in the embed's split build (inlined in the other
 * bundles): the hands not every run needs, what a download's file says, the userscript's sealed
 * frame sessions, the bridge to the page's own tools and their forms, how a run ends (its answer
 * against the schema and the step record, its budgets), the driver that replays a recording, the
 * Markdown of answers shown in the panel, the browser's own model (the Prompt API). One module, so the split makes
 * one chunk of it and one of the code it shares with the agent. The layers below never import
 * it: the entry lends it to them (page/lazy.ts, agent/lazy.ts, the agent's replay, the panel's
 * `connect`).
 */
export { selectOption } from './page/actions/select';
export { drag } from './page/actions/drag';
export { scroll, scrollTo } from './page/actions/scroll';
export { read } from './page/actions/read';
export { wait } from './page/actions/wait';
export { upload } from './page/actions/upload';
export { holdAt } from './page/actions/gesture';
export { reportDownload } from './page/actions/download-report';
export { fetchSameOrigin } from './page/same-origin';
export { openUserscriptSessions } from './page/frames/sealed-parent';
export * as webmcp from './webmcp/bridge';
export { fillPlan, fillReport } from './webmcp/forms';
export { ending } from './agent/honest';
export { budgetEnd, cutReply, noPrice } from './agent/budget';
export { ReplayDriver } from './replay/replay-run';
export * as markdown from './ui/markdown';
export { saveFile } from './ui/save';
export { openBrowserModel, watchBrowserModel } from './llm/browser-model';
