/** What a replay keeps in the run's saved state, so it goes on across full page loads. */
import type { RecordedExpectation, RecordedStep, Recording } from '../public-types';

export interface ReplayState {
  /** The recording as given (its `{name}`s not yet filled). */
  recording: Recording;
  /** The values its `{name}`s are filled with. */
  values: Record<string, string>;
  /** The index of the next recorded step to replay. */
  next: number;
  /** The recording as replayed so far: the steps that ran as recorded, and the repaired ones. */
  out: RecordedStep[];
  /** Numbers (from 1) of the steps in `out` the model made. */
  repaired: number[];
  /** Recorded steps that ran as recorded. */
  replayed: number;
  modelCalls: number;
  /** Broken steps go to the model (default); else the replay ends there. */
  repair: boolean;
  /** The start page was checked (and navigated to when the replay began elsewhere). */
  started?: boolean;
  /** A step that navigated: what it expected, checked on the next page. */
  check?: { index: number; expect: RecordedExpectation };
  /** Indices of recorded steps run again after a repair cleared the way for them (once each). */
  redone?: number[];
  /** The step being repaired by the model. */
  repairing?: {
    index: number;
    /** Why it broke (page-derived: shown to the model as data). */
    why: string;
    turns: number;
    /** The steps the model made so far. */
    made: RecordedStep[];
    /** The recorded action ran (what it expected did not show); the repair comes after it. */
    acted: boolean;
  };
}
