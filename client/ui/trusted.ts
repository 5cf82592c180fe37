/**
 * Whether an event is the user's own input. The panel's controls that give the agent something
 * (Allow, Allow all of a kind, Send, Retry, Take over, Resume) act only on it: a page script
 * that reaches our elements can call click() or dispatchEvent on them, but the browser marks
 * those events untrusted, and `isTrusted` cannot be redefined on a real event.
 *
 * A script that caught one of our listeners (by wrapping addEventListener) could call it with a
 * plain object that says `isTrusted: true`. A getter taken from Event.prototype when the bundle
 * loaded throws on anything that is not a real event, so such an object is refused. (Where the
 * page ran first and replaced that getter — a bookmarklet — only the first check holds.)
 */
const brand: ((this: Event) => unknown) | undefined = typeof Event === 'function' ? Object.getOwnPropertyDescriptor(Event.prototype, 'type')?.get : undefined;

export function isUserInput(e: Event): boolean {
  try {
    brand?.call(e);
  } catch {
    return false;
  }
  return e.isTrusted === true;
}

/** A handler that runs `fn` only for the user's own input. */
export const onUserInput =
  (fn: () => void) =>
  (e: Event): void => {
    if (isUserInput(e)) fn();
  };
