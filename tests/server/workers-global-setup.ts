/**
 * Global setup of the `workers` project. Runs in Node, not workerd: starts the fake upstreams on
 * 127.0.0.1 and provides their origin, which vitest.config.ts passes to the Worker as bindings.
 * It also filters out workerd's logs of the suite's deliberate network failures (see
 * workerd-log-filter.ts), so a real failure stands out.
 */
import type { TestProject } from 'vitest/node';
import { startFakeUpstreams } from './fakes/fake-upstreams';
import { installWorkerdLogFilter } from './workerd-log-filter';

export default async function setup({ provide }: TestProject): Promise<() => Promise<void>> {
  const restoreOutput = installWorkerdLogFilter([process.stdout, process.stderr]);
  const fake = await startFakeUpstreams();
  provide('fakeOrigin', fake.origin);
  return async () => {
    await fake.close();
    restoreOutput();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    fakeOrigin: string;
  }
}
