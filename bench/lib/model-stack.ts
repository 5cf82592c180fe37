/**
 * The fake model and the real proxy (Node), in the bench's own process: what a run's model calls
 * reach. The policy — the scripted model's answer to each request — is swapped per phase.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNodeServer } from '../../server/node';
import { startFakeUpstreams } from '../../tests/server/fakes/fake-upstreams';
import type { ModelRequest } from '../../tests/server/fakes/model-request';
import type { FakeScript } from '../../tests/server/fakes/script';

export type Policy = (req: ModelRequest) => FakeScript | Promise<FakeScript | undefined> | undefined;

/** `name` names the temporary folder (the proxy's token file); `model` is the one model the proxy offers. */
export async function startModelStack(name: string, model: string) {
  let policy: Policy = () => ({ status: 400, errorMessage: 'no policy' });
  const fake = await startFakeUpstreams({ respond: (req) => policy(req) });
  const dir = await mkdtemp(join(tmpdir(), `pagehand-bench-${name}-`));
  const proxy = await startNodeServer({
    env: { PORT: '0', HOST: '127.0.0.1', OPENAI_BASE_URL: fake.openaiBaseURL, OPENAI_API_KEY: 'sk-bench-0123456789abcdef', PAGEHAND_MODELS: model },
    tokenFile: join(dir, 'token'),
    log: () => {},
    // The scripted model answers at once: the personal token's 60 a minute would add 429 waits
    // to what the bench measures.
    personalRpm: 10_000,
  });
  return {
    fake,
    proxy,
    setPolicy: (p: Policy) => void (policy = p),
    close: async () => {
      await proxy.close();
      await fake.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
