/**
 * Motion settle waits for: an accordion that opens over 400 ms shows the links in its lower
 * part only at the end, so a map taken half-way misses them.
 *
 * - CSS animations and transitions, and Web Animations (`document.getAnimations()`): finite ones
 *   that end within the time settle has left. Infinite ones (spinners) and those that would
 *   outlast the bound are not waited for; nor is the agent's own UI (or a deny zone).
 * - Script animations (jQuery's `animate`, GSAP, a rAF loop writing inline styles): an element
 *   whose inline style changes is activity, as any mutation is — unless it was already changing
 *   right before the action (not a reaction to it: ignored for that action), or it has changed
 *   for longer than SCRIPT_ANIMATION_MAX, or for a while between actions: then it is a loop (a
 *   ticker, a carousel, a spinner), remembered and ignored from then on. Between actions a
 *   light observer (inline styles only) watches for that.
 */
/** An element whose inline style keeps changing longer than this (ms) is a loop, not an animation. */
export const SCRIPT_ANIMATION_MAX = 1000;
/** Changes that make an element's style churn (a few writes are one reaction, not an animation). */
const CHURN_CHANGES = 6;
/** Between actions, churn that lasts this long (ms) marks a loop. */
const BETWEEN_ACTIONS_SPAN = 500;
/** How long (ms) style churn is watched for between actions (a model's turn can take a while). */
const BETWEEN_ACTIONS_WATCH = 120_000;
/** After an action, its own animation may run on: churn marks a loop only after this (ms). */
const AFTER_ACTION_GRACE = 300;
/** Changed this recently (ms) before an action, and more than once: moving already, not a reaction. */
const RECENT_MS = 150;

/** Elements seen animating on their own (not in reaction to an action). */
const loops = new WeakSet<Node>();

/**
 * Per watch: whether a style change counts as activity. It does, unless the element is a
 * known loop, was moving before the action (`before`), or has now been changing for longer
 * than SCRIPT_ANIMATION_MAX (then it becomes a loop).
 */
export function styleChurn(before: ReadonlySet<Node> = new Set()): (target: Node, now: number) => boolean {
  const seen = new WeakMap<Node, { first: number; changes: number }>();
  return (target, now) => {
    if (loops.has(target) || before.has(target)) return false;
    let c = seen.get(target);
    if (!c) seen.set(target, (c = { first: now, changes: 0 }));
    c.changes++;
    if (c.changes > CHURN_CHANGES && now - c.first > SCRIPT_ANIMATION_MAX) {
      loops.add(target);
      return false;
    }
    return true;
  };
}

interface Churn {
  first: number;
  last: number;
  changes: number;
}

let between: { observer: MutationObserver; timer: ReturnType<typeof setTimeout>; recent: Map<Node, Churn> } | null = null;

/**
 * Watches inline-style churn while no action runs (for at most BETWEEN_ACTIONS_WATCH): what
 * keeps changing for a while is a loop; what changes right before the next action is moving
 * already (`stopLearningLoops` returns it). `afterAction`: an action just ended, whose own
 * animation may still run — it marks no loop for a short grace.
 */
export function learnLoopsBetweenActions(docs: readonly Document[], setTimer: typeof setTimeout, clearTimer: typeof clearTimeout, afterAction = true): void {
  stopLearningLoops(clearTimer);
  const graceEnd = performance.now() + (afterAction ? AFTER_ACTION_GRACE : 0);
  const recent = new Map<Node, Churn>();
  const note = (t: Node, now: number): void => {
    if (loops.has(t)) return;
    let c = recent.get(t);
    if (!c || now - c.last > RECENT_MS) recent.set(t, (c = { first: now, last: now, changes: 0 }));
    c.changes++;
    c.last = now;
    if (c.first >= graceEnd && c.changes >= CHURN_CHANGES && now - c.first >= BETWEEN_ACTIONS_SPAN) {
      loops.add(t);
      recent.delete(t);
    }
  };
  let observer: MutationObserver;
  try {
    observer = new MutationObserver((records) => {
      const now = performance.now();
      for (const r of records) note(r.target, now);
    });
    for (const d of docs) observer.observe(d, { subtree: true, attributes: true, attributeFilter: ['style'] });
  } catch {
    return;
  }
  between = { observer, recent, timer: setTimer(() => void stopLearningLoops(clearTimer), BETWEEN_ACTIONS_WATCH) };
  pendingNote = note;
}

let pendingNote: ((t: Node, now: number) => void) | null = null;

/** Ends the watch between actions; returns the elements whose style was changing right before now. */
export function stopLearningLoops(clearTimer: typeof clearTimeout): Set<Node> {
  const moving = new Set<Node>();
  if (!between) return moving;
  const now = performance.now();
  // Changes not yet delivered to the observer's callback happened just now.
  for (const r of between.observer.takeRecords()) pendingNote?.(r.target, now);
  between.observer.disconnect();
  clearTimer(between.timer);
  for (const [node, c] of between.recent) if (c.changes > 1 && now - c.last <= RECENT_MS) moving.add(node);
  between = null;
  pendingNote = null;
  return moving;
}
