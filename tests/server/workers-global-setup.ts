/**
 * Global setup of the `workers` project. Runs in Node, not workerd: starts the fake upstreams on
 * 127.0.0.1 and provides their origin, which vitest.config.ts passes to the Worker as bindings.
 */
import type { TestProject } from 'vitest/node';
import { startFakeUpstreams } from './fakes/fake-upstreams';

export default async function setup({ provide }: TestProject): Promise<() => Promise<void>> {
  const fake = await startFakeUpstreams();
  provide('fakeOrigin', fake.origin);
  return () => fake.close();
}

declare module 'vitest' {
  export interface ProvidedContext {
    fakeOrigin: string;
  }
}
