/** The per-client rate-limit key: one key per client, whatever form its address comes in. */
import { describe, expect, it } from 'vitest';
import { addressKey } from '../../server/client-address';

describe('addressKey', () => {
  it('keeps IPv4 as is, without a port, and unwraps IPv4-mapped IPv6', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey(' 203.0.113.7:51234 ')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::FFFF:127.0.0.1')).toBe('127.0.0.1');
  });

  it('counts an IPv6 client by its /64, in any spelling', () => {
    const key = '2001:db8:1:2::/64';
    for (const a of [
      '2001:db8:1:2::1',
      '2001:0db8:0001:0002:ffff:ffff:ffff:ffff',
      '[2001:db8:1:2::99]:443',
      '2001:DB8:1:2:0:0:0:7',
      'fe80::1%eth0'.replace('fe80::1', '2001:db8:1:2::5'),
    ]) {
      expect(addressKey(a), a).toBe(key);
    }
    expect(addressKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });

  it('bounds and keeps what it cannot parse, so a strange value is still one key', () => {
    expect(addressKey('unknown')).toBe('unknown');
    expect(addressKey('x'.repeat(500))).toHaveLength(64);
  });
});
