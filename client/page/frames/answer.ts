/**
 * What pagehand in a frame does with a request its parent sent (either protocol): builds its
 * map, or runs the call — but only if what the call would press still looks as it did when the
 * parent judged its risk (a page that changed the element since cannot slip a riskier one in).
 */
import type { ActionCall, ActionResult } from '../actions/contract';
import type { TargetFacts } from '../facts-types';
import type { FrameReply, FrameRequest, RemoteMap } from './protocol';

export interface ChildDeps {
  map(maxTokens: number): Promise<RemoteMap>;
  act(call: ActionCall): Promise<ActionResult>;
  /** The facts the parent's risk check would read for this call here (undefined: none). */
  facts(call: ActionCall): TargetFacts | undefined;
}

/** A frame's map is bounded whatever the parent asks. */
const MAX_FRAME_TOKENS = 3000;

export async function answerRequest(deps: ChildDeps, m: FrameRequest): Promise<FrameReply> {
  if (m.type === 'map') {
    let map: RemoteMap;
    try {
      map = await deps.map(Math.min(m.maxTokens, MAX_FRAME_TOKENS));
    } catch {
      map = { lines: [], elements: [], facts: {} };
    }
    return { type: 'map-result', id: m.id, map };
  }
  let result: ActionResult;
  const now = safeFacts(deps, m.call);
  if (m.judged !== undefined && JSON.stringify(now ?? null) !== JSON.stringify(m.judged ?? null)) {
    result = {
      ok: false,
      message: 'The element in the frame changed since the map was taken; look at the new map and try again.',
      error: { kind: 'stale_ref' },
      changes: {},
    };
  } else {
    try {
      result = await deps.act(m.call);
    } catch (e) {
      result = { ok: false, message: `The action failed in the frame: ${String((e as Error)?.message ?? e)}`, error: { kind: 'failed' }, changes: {} };
    }
  }
  return { type: 'act-result', id: m.id, result: JSON.parse(JSON.stringify(result)) as ActionResult };
}

function safeFacts(deps: ChildDeps, call: ActionCall): TargetFacts | undefined {
  try {
    return deps.facts(call);
  } catch {
    return undefined;
  }
}
