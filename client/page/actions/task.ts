/**
 * A keyboard or mouse delivers each input event as a task of its own: between two keys the
 * page's microtasks run (a React state update, the effect that registers a new listener), so
 * the next key reaches the listener the last one left. Actions that send several events
 * (combos, typing, drag steps, hold) await `nextTask()` between them to do the same.
 */
import { nativeSetTimeout } from '../settle/settle';

// Captured at load, as the timers are: a page that replaces MessageChannel does not see our waits.
const Channel: typeof MessageChannel | undefined = typeof MessageChannel === 'function' ? MessageChannel : undefined;

/**
 * Resolves in a new task: a posted message (no 4 ms clamp as nested timers get, and not
 * counted as page activity by the settle watch), else a timer.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    if (!Channel) {
      nativeSetTimeout(resolve, 0);
      return;
    }
    const ch = new Channel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      resolve();
    };
    ch.port2.postMessage(null);
  });
}
