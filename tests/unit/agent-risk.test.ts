import { describe, expect, it } from 'vitest';
import { classifyRisk } from '../../client/agent/risk';
import type { TargetFacts } from '../../client/page/facts';

const here = 'https://shop.example/cart';
const button = (name: string, extra: Partial<TargetFacts> = {}): TargetFacts => ({ role: 'button', name, tag: 'button', ...extra });
const click = { name: 'click', args: { ref: '1' } };

describe('risky actions', () => {
  it.each([
    ['Place order', 'payment'],
    ['Pay now', 'payment'],
    ['Confirmar pedido', 'payment'],
    ['Delete account', 'deletion'],
    ['Move to trash', 'deletion'],
    ['Send', 'sending'],
    ['Publish post', 'sending'],
  ])('clicking %j is %s', (name, kind) => {
    expect(classifyRisk(click, button(name), here)?.kind).toBe(kind);
  });

  it.each(['Add to cart', 'Checkout', 'Search', 'Next', 'Open', 'Show more'])('clicking %j is not risky', (name) => {
    expect(classifyRisk(click, button(name), here)).toBeUndefined();
  });

  it('submitting a form with personal data is risky; a search form is not', () => {
    const submits = { personal: ['name', 'email'], search: false };
    expect(classifyRisk(click, button('Next', { submits }), here)).toMatchObject({ kind: 'personal_data', reason: expect.stringContaining('name, email') });
    expect(classifyRisk({ name: 'press_key', args: { key: 'Enter' } }, { role: 'textbox', name: 'Email', tag: 'input', submits }, here)?.kind).toBe('personal_data');
    expect(classifyRisk(click, button('Search', { submits: { personal: [], search: true } }), here)).toBeUndefined();
  });

  it('leaving the site and downloads are risky; links within the site are not', () => {
    const link = (href: string, extra: Partial<TargetFacts> = {}): TargetFacts => ({ role: 'link', name: 'More', tag: 'a', href, ...extra });
    expect(classifyRisk(click, link('https://other.example/'), here)?.kind).toBe('leaving_site');
    expect(classifyRisk(click, link('https://shop.example/report.pdf'), here)?.kind).toBe('download');
    expect(classifyRisk(click, link('https://shop.example/x', { download: true }), here)?.kind).toBe('download');
    expect(classifyRisk(click, link('https://shop.example/checkout'), here)).toBeUndefined();
    expect(classifyRisk({ name: 'navigate', args: { url: 'https://other.example/' } }, undefined, here)?.kind).toBe('leaving_site');
    expect(classifyRisk({ name: 'navigate', args: { url: '/orders' } }, undefined, here)).toBeUndefined();
    expect(classifyRisk({ name: 'navigate', args: { url: 'http://[' } }, undefined, here)).toBeUndefined();
  });

  it('typing, scrolling and hovering are never risky by themselves', () => {
    expect(classifyRisk({ name: 'type', args: { ref: '1', text: 'x' } }, button('Delete'), here)).toBeUndefined();
    expect(classifyRisk({ name: 'hover', args: { ref: '1' } }, button('Delete'), here)).toBeUndefined();
  });
});
