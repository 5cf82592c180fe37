/**
 * Thread files for the runner (`pagehand run --thread FILE`): a conversation read and checked
 * with the same rule as `run(task, { thread })`, written back as the result's `thread`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { threadProblem, type Thread } from '../common/thread';

/** The thread in `path` (`given`: as the user wrote it), undefined when the file does not exist yet, or the error. */
export function readThreadFile(path: string, given: string): Thread | undefined | string {
  if (!existsSync(path)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    return `--thread ${given} is not a JSON thread file: ${String((e as Error)?.message ?? e)}`;
  }
  const problem = threadProblem(value);
  return problem ? `--thread ${given}: ${problem}` : (value as Thread);
}

export async function writeThreadFile(path: string, thread: Thread): Promise<void> {
  await writeFile(path, `${JSON.stringify(thread, null, 2)}\n`);
}
