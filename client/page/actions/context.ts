/** What every action handler receives, and what it returns to the dispatcher. */
import type { Describer } from '../names/describe';
import type { PageSettings } from '../settings';
import type { SettleResult } from '../settle/settle-watch';
import type { Ref } from '../page-types';
import type { ActionChanges, ActOptions } from './contract';

export interface ActionContext {
  /** What `init` and the run decided (deny zones, masks, frames, the navigation hook). */
  settings: PageSettings;
  describer: Describer;
  options: Required<Omit<ActOptions, 'files'>>;
  /** The files the user (or the site, or the runner) attached: all that `upload` may use. */
  files: readonly File[];
  /** The live element for a ref, re-validated (throws RefError: unknown/stale). */
  resolve(ref: Ref): Element;
  /** `button "Save"` */
  label(el: Element): string;
  /** `Element [12] button "Save"` — for errors. */
  subject(ref: Ref, el: Element): string;
  /**
   * Call right before the first event: snapshots the page (for `changes`) and starts watching
   * activity (for settle). `el` adds its document (a same-origin frame) to the watch.
   */
  begin(el?: Element): void;
  /** Waits for the page to settle in the middle of an action (e.g. a combobox opening). */
  settle(timeout?: number): Promise<SettleResult>;
}

export interface Outcome {
  /** Default true. */
  ok?: boolean;
  message: string;
  changes?: ActionChanges;
  /** Default true when `begin` was called: wait for the page to settle before reporting. */
  settle?: boolean;
  /** Runs after settling: the final value of a field, a scroll position… */
  after?: () => { message?: string; changes?: ActionChanges } | void;
  /**
   * Runs when something the action made the page do was refused: puts back what the action
   * changed, and returns the sentence that replaces `message` (undefined: nothing put back).
   */
  undo?: () => string | undefined;
}

export type Handler<A> = (args: A, ctx: ActionContext) => Promise<Outcome>;
