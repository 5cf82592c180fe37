/**
 * Ends an SSE stream whose upstream broke or stalled after the first byte: one error event
 * (unless the page itself went away), then close. The status line is long gone, so the event
 * is the only way the page learns the answer is incomplete.
 *
 * @example
 * catch (e) { settle(failStream(controller, e, 'openai', guard, redact)); }
 */
import { ProxyError } from '../errors';
import type { Redact } from '../redact';
import { sseError } from './sse';
import { upstreamFailure, type ProviderName } from './upstream-errors';
import type { UpstreamGuard } from './upstream-guard';

export function failStream(
  controller: ReadableStreamDefaultController<Uint8Array>,
  e: unknown,
  provider: ProviderName,
  guard: UpstreamGuard,
  redact: Redact,
): { ok: false; detail?: string } {
  const failure = upstreamFailure(e, provider, guard, redact);
  guard.dispose();
  const err =
    failure.error.code === 'upstream_timeout'
      ? failure.error
      : new ProxyError(502, 'upstream_stream_error', `The ${provider} upstream stream broke off before the end.`);
  try {
    if (guard.cause !== 'client') controller.enqueue(sseError(err));
    controller.close();
  } catch {
    // already cancelled by the page
  }
  return { ok: false, detail: failure.detail };
}
