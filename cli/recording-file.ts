/**
 * Recording files for the runner (`pagehand run --replay FILE`, `--record FILE`, the test
 * kit's tasks): read and checked with the same rules as `pagehand.replay`, written as the JSON
 * a run's result carries.
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import type { Recording } from '../client/agent/public-types';
import { recordingProblem } from '../common/recording';

/** The recording in `path` (`given`: as the user wrote it, for messages), or the error. */
export function readRecordingFile(path: string, given: string): Recording | string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return `${given}: no such recording file`;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return `${given} is not valid JSON: ${String((e as Error)?.message ?? e)}`;
  }
  const problem = recordingProblem(value);
  return problem ? `${given}: ${problem}` : (value as Recording);
}

/** `NAME=VALUE` pairs (`--value`, repeatable) as a recording's values, or the error. */
export function valuesOf(given: readonly string[]): Record<string, string> | string | undefined {
  if (!given.length) return undefined;
  const out: Record<string, string> = {};
  for (const g of given) {
    const eq = g.indexOf('=');
    if (eq <= 0) return `--value must be NAME=VALUE, got "${g}"`;
    const name = g.slice(0, eq);
    if (Object.prototype.hasOwnProperty.call(out, name)) return `--value ${name} is given twice`;
    out[name] = g.slice(eq + 1);
  }
  return out;
}

export async function writeRecordingFile(path: string, recording: Recording): Promise<void> {
  await writeFile(path, `${JSON.stringify(recording, null, 2)}\n`);
}
