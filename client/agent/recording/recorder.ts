/**
 * Turns what a run does into recording steps: right before a page action (or a site tool) runs,
 * its target is described from the live page (the element may be gone after the action); once
 * it ran, what it led to becomes the step's expectation. Failed actions are not steps; neither
 * are `read` and `find`, which change nothing.
 */
import type { PageCall, SiteCall } from '../calls';
import type { RecordedStep, RecordedTarget } from '../public-types';
import type { CallTarget } from '../public-types';
import type { ActionResult } from '../../page/actions/contract';
import { createDescriber } from '../../page/names/describe';
import type { Masks, PageSettings } from '../../page/settings';
import { resolveRef } from '../../page/map/refs';
import type { PageMap, Ref } from '../../page/page-types';
import { describeTargetIn } from './locate';
import { expectationOf, keptArgs, keptTarget, typedValues } from './recording';

/**
 * The step a call will make, before it runs; undefined for calls that are not steps. `map`: the
 * step's map, whose walk describes the target while the page has not changed since.
 */
export function beginStep(call: PageCall | SiteCall, target: CallTarget | undefined, settings: PageSettings, map?: PageMap): RecordedStep | undefined {
  const { masks } = settings;
  if (call.kind === 'site') return { action: call.tool.name, tool: true, args: keptArgs(call.args, masks) };
  const { name, args } = call.action;
  if (name === 'read') return undefined;
  const ref = (args as { ref?: Ref }).ref;
  let t: RecordedTarget | undefined;
  if (ref !== undefined) {
    try {
      const describer = createDescriber(settings);
      t = describeTargetIn(
        map,
        resolveRef(ref, (e) => describer.describe(e)),
        describer,
      );
    } catch {
      /* a ref that does not resolve fails the action: no step */
    }
    // Not listed by the walk (an odd widget): as the map showed it.
    if (!t && target) t = { role: target.role, name: target.name };
    if (!t) return undefined;
  }
  return { action: name, args: keptArgs(args as Record<string, unknown>, masks), ...(t ? { target: keptTarget(t, masks) } : {}) };
}

/**
 * The step once its call ran, with what it led to; undefined when it failed. `earlier`: the
 * steps before it, whose typed values its expectation must not depend on either (a form sent
 * by GET puts them in the next page's query).
 */
export function endStep(
  step: RecordedStep,
  result: ActionResult,
  origin: string,
  masks: Masks,
  earlier: readonly RecordedStep[] = [],
): RecordedStep | undefined {
  if (!result.ok) return undefined;
  const typed = [...earlier, step].flatMap((s) => typedValues(s.args));
  const expect = expectationOf(result.changes, origin, masks, typed, step.tool ? 'click' : step.action);
  return expect ? { ...step, expect } : step;
}
