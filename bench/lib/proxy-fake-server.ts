/**
 * The fake OpenAI/Gemini upstreams of tests/server as a standalone process for the proxy bench,
 * so the fake, the proxy and the load generator never share an event loop.
 * Prints one JSON line `{ "origin": "http://127.0.0.1:…" }` when listening.
 */
import { startFakeUpstreams } from '../../tests/server/fakes/fake-upstreams';

const fake = await startFakeUpstreams();
console.log(JSON.stringify({ origin: fake.origin }));
process.once('SIGTERM', () => void fake.close().then(() => process.exit(0)));
