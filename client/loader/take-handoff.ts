/**
 * The agent chunk's first import: adopts the loader's handoff before any other module runs, and
 * puts back the built-ins the agent keeps (./handoff.ts NATIVES) as the loader found them, until
 * ./restore-natives.ts — the chunk's last import — restores what the page has now. Nothing of
 * the page runs in between: the chunk's modules load in one synchronous run.
 */
import { adoptHandoff } from './adopt';
import { applyNatives, type NativeSnapshot } from './handoff';

export const pageNatives: NativeSnapshot = applyNatives(adoptHandoff().natives);
