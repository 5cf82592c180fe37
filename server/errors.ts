/**
 * The proxy's error vocabulary. Every failure leaves as JSON `{ error: { code, message } }`
 * with a stable `code` the page can branch on and a sentence a human can act on.
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** Stable machine-readable codes. Client mistakes are 4xx; upstream trouble is 502/503/504. */
export type ErrorCode =
  // request shape (400)
  | 'invalid_json'
  | 'invalid_body'
  | 'unknown_parameter'
  | 'invalid_model'
  | 'invalid_messages'
  | 'invalid_message'
  | 'invalid_content_part'
  | 'unsupported_image_url'
  | 'invalid_tools'
  | 'invalid_tool_choice'
  | 'invalid_parameter'
  | 'n_too_large'
  | 'missing_origin'
  // who is asking (401/403)
  | 'missing_token'
  | 'invalid_token'
  | 'token_expired'
  | 'origin_not_allowed'
  | 'session_not_allowed'
  | 'cross_origin_refused'
  | 'model_not_allowed'
  // an old bookmarklet (410)
  | 'bookmarklet_outdated'
  // transport (404/405/413/415/429)
  | 'not_found'
  | 'method_not_allowed'
  | 'body_too_large'
  | 'prompt_too_large'
  | 'too_many_images'
  | 'unsupported_media_type'
  | 'rate_limited'
  // upstream and server (4xx passed on, 5xx)
  | 'upstream_rejected'
  | 'upstream_rate_limited'
  | 'upstream_auth_failed'
  | 'upstream_error'
  | 'upstream_unreachable'
  | 'upstream_timeout'
  | 'upstream_stream_error'
  | 'provider_not_configured'
  | 'no_sites_configured'
  | 'server_misconfigured'
  | 'internal_error';

export interface ErrorBody {
  error: { code: ErrorCode; message: string };
}

/** Thrown anywhere in the app; the error handler turns it into the JSON body above. */
export class ProxyError extends Error {
  /** Redacted upstream detail for the log; never sent to the page. */
  detail?: string;

  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ErrorCode,
    message: string,
    /** Extra response headers, e.g. Retry-After on 429. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ProxyError';
  }

  toBody(): ErrorBody {
    return { error: { code: this.code, message: this.message } };
  }
}

export function errorResponse(c: Context, err: ProxyError): Response {
  for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
  return c.json(err.toBody(), err.status);
}
