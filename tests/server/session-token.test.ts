/** Session tokens as a pure piece: made and checked with Web Crypto, nothing stored. */
import { describe, expect, it } from 'vitest';
import { mintSessionToken, parentId, sessionVerifier } from '../../server/session/token';

const PARENT = { token: 'tok-parent-0123456789abcdef', origins: ['*'] };
const OTHER = { token: 'tok-other-0123456789abcdef', origins: ['*'] };
const T0 = Date.UTC(2030, 0, 1);

describe('session tokens', () => {
  it('round-trips the origin, expiry and parent, and names the parent by digest only', async () => {
    const token = await mintSessionToken(PARENT.token, 'https://page.test', T0 / 1000 + 60);
    expect(token).toMatch(/^phs_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(token).not.toContain('parent');
    const check = await sessionVerifier([OTHER, PARENT])(token, T0);
    expect(check).toEqual({ ok: true, site: PARENT, claims: { origin: 'https://page.test', expiresAt: T0 / 1000 + 60, parent: await parentId(PARENT.token) } });
  });

  it("carries the user's mark only when made for the user, and it cannot be added to a token without changing its signature", async () => {
    const user = await mintSessionToken(PARENT.token, 'https://page.test', T0 / 1000 + 60, { user: true });
    const check = await sessionVerifier([PARENT])(user, T0);
    expect(check).toMatchObject({ ok: true, claims: { origin: 'https://page.test', user: true } });
    const plain = await mintSessionToken(PARENT.token, 'https://page.test', T0 / 1000 + 60);
    expect((await sessionVerifier([PARENT])(plain, T0)) as { claims?: { user?: true } }).not.toHaveProperty('claims.user');
    // The user's payload on the plain token's signature: refused.
    expect(await sessionVerifier([PARENT])(`${user.split('.')[0]}.${plain.split('.')[1]}`, T0)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('is the same token for the same inputs (stateless, survives a restart)', async () => {
    expect(await mintSessionToken(PARENT.token, 'https://page.test', 123)).toBe(await mintSessionToken(PARENT.token, 'https://page.test', 123));
  });

  it('expires at its second, not before', async () => {
    const token = await mintSessionToken(PARENT.token, 'https://page.test', T0 / 1000 + 60);
    const verify = sessionVerifier([PARENT]);
    expect((await verify(token, T0 + 59_999)).ok).toBe(true);
    expect(await verify(token, T0 + 60_000)).toMatchObject({ ok: false, reason: 'expired' });
  });

  it('is invalid without its parent, or with a payload from another token', async () => {
    const token = await mintSessionToken(PARENT.token, 'https://page.test', T0 / 1000 + 60);
    expect(await sessionVerifier([OTHER])(token, T0)).toEqual({ ok: false, reason: 'invalid' });
    const other = await mintSessionToken(OTHER.token, 'https://page.test', T0 / 1000 + 60);
    const spliced = `${other.split('.')[0]}.${token.split('.')[1]}`;
    expect(await sessionVerifier([PARENT, OTHER])(spliced, T0)).toEqual({ ok: false, reason: 'invalid' });
    for (const junk of ['phs_', 'phs_.', 'phs_e30.AAAA', `phs_${'A'.repeat(3000)}.${'A'.repeat(43)}`, `phs_!!!.${'A'.repeat(43)}`]) {
      expect(await sessionVerifier([PARENT])(junk, T0), junk.slice(0, 20)).toEqual({ ok: false, reason: 'invalid' });
    }
  });
});
