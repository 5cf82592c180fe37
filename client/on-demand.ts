/**
 * What the agent loads on first use, as one file in the embed's split build (inlined in the
 * other bundles): the hands not every run needs, the replay's driver, the WebMCP bridge, the
 * check of an answer against the run's schema, what a download's file says, the userscript's
 * sealed frame sessions. One module, so the split makes one chunk of it and one of the code it
 * shares with the agent.
 */
export { selectOption } from './page/actions/select';
export { drag } from './page/actions/drag';
export { upload } from './page/actions/upload';
export { holdAt } from './page/actions/gesture';
export { ReplayDriver } from './replay/replay-run';
export * as webmcp from './webmcp/bridge';
export { fillPlan, fillReport } from './webmcp/forms';
export { judgeAnswer } from './agent/answer-check';
export { readDownload, reportDownload } from './page/actions/download-report';
export { openUserscriptSessions } from './page/frames/sealed-parent';
