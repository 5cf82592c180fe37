/**
 * POST /v1/chat/completions: validate, apply the site's rules, route by model, answer in
 * OpenAI's format. Runs after requireSite, the rate limits and jsonBody.
 */
import type { Handler } from 'hono';
import { allowedModels, defaultModelFor, isModelAllowed, type ProxyConfig } from '../config';
import { NO_PROVIDER_FIX } from '../../common/no-provider';
import { ProxyError } from '../errors';
import type { JsonBodyVariables } from '../middleware/json-body';
import type { SiteVariables } from '../middleware/require-site';
import type { Redact } from '../redact';
import { capTokens, providerFor } from './caps';
import { applyQuirks } from './quirks';
import { watchReply } from './reply-watch';
import { refusesTools, TextModes } from './text-modes';
import { callsFromReply, toTextRequest } from './text-protocol';
import { serveText } from './text-serve';
import { geminiUpstream, type GeminiUpstream } from './gemini-upstream';
import { openaiUpstream, type OpenAIUpstream } from './openai-upstream';
import { estimatePromptTokens, IMAGE_TOKENS, imageCount, MAX_IMAGES } from './prompt-size';
import { UpstreamGuard } from './upstream-guard';
import { validateChatRequest } from './validate';

type Env = { Variables: SiteVariables & JsonBodyVariables };

const ENV_FOR = { openai: 'OPENAI_API_KEY or OPENAI_BASE_URL', gemini: 'GEMINI_API_KEY' } as const;

export function chatCompletions(config: ProxyConfig, redact: Redact): Handler<Env> {
  const upstreams: { openai?: OpenAIUpstream; gemini?: GeminiUpstream } = {
    openai: config.providers.openai && openaiUpstream(config.providers.openai, redact),
    gemini: config.providers.gemini && geminiUpstream(config.providers.gemini, redact),
  };
  const textModes = new TextModes(config.textModels ?? []);

  return async (c) => {
    const started = Date.now();
    const site = c.get('site');
    const request = validateChatRequest(c.get('body'), { maxN: config.limits.maxN });

    const model = request.model ?? defaultModelFor(config, site);
    // No provider at all: say what to set, also when the request names a model (an allow-list
    // of none would otherwise answer "not allowed").
    if (!model || (!upstreams.openai && !upstreams.gemini)) {
      // In the words the page, the runner and the install page use: what to set, for a local server too, and to restart.
      throw new ProxyError(503, 'provider_not_configured', `No model provider is configured on this proxy: ${NO_PROVIDER_FIX}`);
    }
    if (!isModelAllowed(config, site, model)) {
      throw new ProxyError(
        403,
        'model_not_allowed',
        `Model "${model}" is not allowed for this token. Allowed: ${allowedModels(config, site).join(', ') || 'none'}.`,
      );
    }
    const provider = providerFor(model);
    const upstream = upstreams[provider];
    if (!upstream) {
      throw new ProxyError(503, 'provider_not_configured', `"${model}" needs the ${provider} provider: set ${ENV_FOR[provider]} on the server.`);
    }
    const images = imageCount(request);
    if (images > MAX_IMAGES) {
      throw new ProxyError(413, 'too_many_images', `The request carries ${images} images; at most ${MAX_IMAGES} are accepted.`);
    }
    const promptCap = site.maxPromptTokens ?? config.limits.defaultMaxPromptTokens;
    const promptTokens = estimatePromptTokens(request);
    if (promptTokens > promptCap) {
      throw new ProxyError(
        413,
        'prompt_too_large',
        `The prompt is about ${promptTokens} tokens (estimated as characters / 4, and ${IMAGE_TOKENS} an image), over this token's cap of ${promptCap}.`,
      );
    }
    // The site's cap, then the family's parameter names (quirks.ts).
    const resolved = applyQuirks(capTokens({ ...request, model }, site.maxTokens ?? config.limits.defaultMaxTokens), provider);
    const tools = resolved.tools ?? [];
    let text = tools.length > 0 && textModes.uses(provider, model);

    let guard = new UpstreamGuard(c.req.raw.signal, config.limits.upstreamTimeoutMs);
    const logLine = { model, provider, stream: Boolean(resolved.stream) };
    // The text protocol (text-protocol.ts): tools described in the prompt, the call read back from the text.
    const viaText = async () => serveText(await upstream.open(toTextRequest(resolved), guard), resolved, tools, guard);
    try {
      let result;
      try {
        result = text ? await viaText() : await upstream.complete(resolved, guard);
      } catch (e) {
        // The upstream refuses tools for this model: the same request once more in text, and
        // text from now on.
        if (text || !tools.length || !refusesTools(e)) throw e;
        config.log({ level: 'info', msg: 'text protocol chosen', reason: 'upstream refused tools', detail: e.detail, ...logLine });
        textModes.remember(provider, model, 'upstream refused tools');
        guard.dispose();
        guard = new UpstreamGuard(c.req.raw.signal, config.limits.upstreamTimeoutMs);
        text = true;
        result = await viaText();
      }
      const { response, done } = result;
      config.log({ level: 'info', msg: 'chat', status: response.status, ttfbMs: Date.now() - started, ...(text ? { protocol: 'text' } : {}), ...logLine });
      void done.then((r) => {
        if (!r.ok) config.log({ level: 'warn', msg: 'chat stream ended early', detail: r.detail, ...logLine });
      });
      if (text || !tools.length) return response;
      // A model that writes its call as text instead of calling, twice in a row, gets text mode.
      return watchReply(response, (reply) => {
        const wroteCall = !reply.toolCalls.length && callsFromReply(reply.content, tools).toolCalls.length > 0;
        if (textModes.noteReply(provider, model, wroteCall))
          config.log({ level: 'info', msg: 'text protocol chosen', reason: 'calls written as text', ...logLine });
      });
    } catch (e) {
      if (e instanceof ProxyError) {
        config.log({ level: 'warn', msg: 'chat error', status: e.status, code: e.code, detail: e.detail, ...logLine });
      }
      throw e;
    }
  };
}
