/**
 * A replay's share of the run's recording, read off its saved state (./state.ts): what the run
 * has recorded so far, where a new step goes, what the model is shown while it repairs a step,
 * and the result's recording. Pure, and small: the run needs these whatever happens, also when
 * it ends before the replay's own code (./replay-run.ts, loaded on first use) arrived.
 */
import type { RecordedStep, RunResult } from '../public-types';
import { fill, newRecording, stepText } from './recording';
import type { ReplayState } from './state';

/** The recording's steps as replayed so far, values filled, with what a repair made. */
export function replayedSoFar(rs: ReplayState): readonly RecordedStep[] {
  return [...fill(rs.out, rs.values), ...(rs.repairing?.made ?? [])];
}

/** Only a repair's own page actions are recorded (as the step they replace). */
export const recordsActions = (rs: ReplayState): boolean => !!rs.repairing;

export function recordRepairStep(rs: ReplayState, step: RecordedStep): void {
  rs.repairing?.made.push(step);
}

/** Step `i` of the recording, values filled. */
export const replayStepAt = (rs: ReplayState, i: number): RecordedStep => fill(rs.recording.steps[i]!, rs.values);

/** The recording as the model sees it while it repairs a step, else nothing. */
export function repairLines(rs: ReplayState): string[] | undefined {
  const rp = rs.repairing;
  if (!rp) return undefined;
  return rs.recording.steps.map((_, i) => {
    const mark = i === rp.index ? `BROKEN (${rp.why})` : i < rp.index ? 'done' : 'to do after';
    return `${i + 1}. ${stepText(replayStepAt(rs, i))} — ${mark}`;
  });
}

/** The result's recording (as replayed, repaired steps marked, steps not reached as they were) and the replay's figures. */
export function replayResult(rs: ReplayState): Partial<RunResult> {
  const rec = rs.recording;
  const steps = [...rs.out];
  const repaired = [...rs.repaired];
  const rp = rs.repairing;
  let from = rs.next;
  if (rp) {
    // Ended while a step was being repaired: what the model made so far takes its place.
    for (const s of rp.made) {
      steps.push({ ...s, repaired: true });
      repaired.push(steps.length);
    }
    from = rp.made.length || rp.acted ? rp.index + 1 : rp.index;
  }
  const recording = { ...newRecording(rec.task, rec.url, [...steps, ...rec.steps.slice(from)], rec.summary), ...(rec.params ? { params: rec.params } : {}) };
  if (repaired.length) recording.repaired = repaired;
  return { recording, replay: { replayed: rs.replayed, repaired: repaired.length, modelCalls: rs.modelCalls } };
}
