/**
 * The proxy as one Hono app, shared by the Node and Workers entries.
 *
 *   POST /v1/chat/completions  OpenAI Chat Completions in and out (JSON or SSE)
 *   GET  /v1/config            what this token may use (models, features — images: which models
 *                              accept them —, limits, and its models' prices when configured)
 *   POST /v1/session           a site or personal token → a session token bound to the page's
 *                              Origin, expiring (what a page should hold)
 *   GET  /healthz              liveness
 *
 * Every error is JSON `{ error: { code, message } }`; keys never appear in a response or a log.
 */
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { chatCompletions } from './chat/handler';
import { allowedModels, defaultModelFor, imageModels, sitePrices, type ProxyConfig } from './config';
import { ProxyError, errorResponse } from './errors';
import { clientRateLimit } from './middleware/client-rate-limit';
import { jsonBody, type JsonBodyVariables } from './middleware/json-body';
import { rateLimit } from './middleware/rate-limit';
import { requireSite, type SiteVariables } from './middleware/require-site';
import { siteCors } from './middleware/site-cors';
import { redactor } from './redact';
import { createSession } from './session/handler';

export type AppEnv = { Variables: SiteVariables & JsonBodyVariables };

/**
 * @example
 * const app = createApp(configFromEnv(process.env, { rateLimiter: memoryRateLimiter(), log: consoleLog }));
 * serve({ fetch: app.fetch, port: 8787, hostname: '127.0.0.1' });
 */
export function createApp(config: ProxyConfig): Hono<AppEnv> {
  const redact = redactor([config.providers.openai?.apiKey, config.providers.gemini?.apiKey]);
  // Every log line passes through redaction, whatever a caller put in it.
  const log: ProxyConfig['log'] = (event) => {
    try {
      config.log(JSON.parse(redact(JSON.stringify(event))) as typeof event);
    } catch {
      // a broken log sink must never break a request
    }
  };
  const safeConfig: ProxyConfig = { ...config, log };

  const app = new Hono<AppEnv>();

  app.onError((err, c) => {
    if (err instanceof ProxyError) return errorResponse(c, err);
    if (err instanceof HTTPException && err.status >= 400 && err.status < 500) {
      return errorResponse(c, new ProxyError(err.status as 400, 'invalid_body', redact(err.message || 'Bad request.')));
    }
    log({ level: 'error', msg: 'unhandled error', detail: err instanceof Error ? `${err.name}: ${err.message}` : String(err) });
    return errorResponse(c, new ProxyError(500, 'internal_error', 'The proxy failed unexpectedly; see its log.'));
  });
  app.notFound((c) => errorResponse(c, new ProxyError(404, 'not_found', `No route for ${c.req.method} ${new URL(c.req.url).pathname}.`)));

  app.get('/healthz', (c) => c.json({ ok: true }));

  app.use('/v1/*', siteCors({ sites: config.sites }));

  // Session tokens work everywhere but where they are made: one cannot make another.
  const site = requireSite({ sites: config.sites, sessions: { now: config.now } });
  const parentSite = requireSite({ sites: config.sites });

  app.get('/v1/config', site, (c) => {
    const s = c.get('site');
    const session = c.get('session');
    const prices = sitePrices(config, s);
    return c.json({
      models: allowedModels(config, s),
      defaultModel: defaultModelFor(config, s) ?? null,
      providers: { openai: Boolean(config.providers.openai), gemini: Boolean(config.providers.gemini) },
      // Images: the models of this token that accept them; the page sends screenshots to no other.
      features: { streaming: true, tools: true, images: imageModels(config, s), geminiImages: 'data-url-only' },
      limits: {
        maxTokens: s.maxTokens ?? config.limits.defaultMaxTokens,
        maxN: config.limits.maxN,
        maxBodyBytes: config.limits.maxBodyBytes,
        maxPromptTokens: s.maxPromptTokens ?? config.limits.defaultMaxPromptTokens,
        rpm: s.rpm ?? config.limits.defaultRpm,
        clientRpm: s.clientRpm ?? config.limits.defaultClientRpm,
      },
      // Dollars per million tokens (PAGEHAND_PRICES): the page puts a cost on a run's usage.
      ...(Object.keys(prices).length ? { prices } : {}),
      // For a session token: where it works and until when, so a page can tell the user in time.
      ...(session ? { session: { origin: session.origin, expiresAt: new Date(session.expiresAt * 1000).toISOString() } } : {}),
    });
  });

  app.post(
    '/v1/chat/completions',
    site,
    clientRateLimit({ limiter: config.clientRateLimiter, defaultRpm: config.limits.defaultClientRpm, trustProxyHops: config.trustProxyHops }),
    rateLimit({ limiter: config.rateLimiter, defaultRpm: config.limits.defaultRpm }),
    jsonBody({ maxBytes: config.limits.maxBodyBytes }),
    chatCompletions(safeConfig, redact),
  );

  app.post('/v1/session', parentSite, createSession({ ttlSeconds: config.limits.sessionTtlSeconds, now: config.now }));

  for (const path of ['/v1/chat/completions', '/v1/config', '/v1/session']) {
    app.all(path, (c) => {
      const allow = path === '/v1/config' ? 'GET, OPTIONS' : 'POST, OPTIONS';
      return errorResponse(c, new ProxyError(405, 'method_not_allowed', `${path} accepts ${allow}.`, { Allow: allow }));
    });
  }
  return app;
}
