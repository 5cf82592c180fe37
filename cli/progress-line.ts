/**
 * `pagehand test`'s live line on a terminal (stderr, so stdout stays what the reporters
 * write): how many tasks are done and which are running, redrawn in place, cleared before any
 * other output and drawn again after it. Nothing at all when stderr is not a terminal (CI).
 * The text given is already safe for a terminal; only this module's own codes are added.
 */
export interface ProgressOut {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export function progressLine(stderr: ProgressOut) {
  const live = !!stderr.isTTY;
  let text = '';
  const draw = () => {
    if (live && text) stderr.write(`\r\x1b[K${text.slice(0, Math.max(10, (stderr.columns ?? 100) - 1))}`);
  };
  const clear = () => {
    if (live && text) stderr.write('\r\x1b[K');
  };
  return {
    show(t: string): void {
      text = t;
      draw();
    },
    clear(): void {
      clear();
      text = '';
    },
    /** `write`, with the line out of its way. */
    around:
      (write: (t: string) => unknown) =>
      (t: string): void => {
        clear();
        write(t);
        draw();
      },
  };
}
