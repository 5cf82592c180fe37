/**
 * The loop's three scripted tasks (webmail, shop, wizard), as every provider path plays them:
 * the tool path and the proxy's text protocol (agent-text-protocol.test.ts), and the browser's
 * own model (browser-model-tasks.test.ts). Pages are under tests/fixtures/agent/.
 */
import { call, hasText, latestMap, mapUrl, refFor, webmailModel, wizardModel, type Policy } from './agent-harness';

/** The shop: search, add the grinder, check out, place the order. */
export const shopModel: Policy = (req) => {
  const map = latestMap(req);
  if (mapUrl(map).includes('checkout.html')) {
    if (hasText(map, /Order #\d+ placed/)) return call('done', { summary: 'The order was placed.' });
    return call('click', { ref: refFor(map, 'button', 'Place order') }, 'goal: place the order');
  }
  if (hasText(map, 'Cart (1)')) return call('click', { ref: refFor(map, 'link', 'Checkout') });
  if (!/value="espresso"/.test(map)) return call('type', { ref: refFor(map, 'searchbox', 'Search products'), text: 'espresso' });
  return call('click', { ref: refFor(map, 'button', /Espresso grinder/) });
};

export const LOOP_TASKS = {
  webmail: { page: 'webmail/inbox.html', task: 'Find the emails Ernesto sent and summarise them', policy: () => webmailModel().policy },
  shop: { page: 'shop/index.html', task: 'Buy the espresso grinder', policy: () => shopModel },
  wizard: { page: 'wizard/step1.html', task: 'Sign me up: Ada Lovelace, ada@example.org, 12 St James Square, London, UK, Pro plan', policy: wizardModel },
} as const;

export type LoopTask = keyof typeof LOOP_TASKS;
