import { desc } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { parseTrustProxy } from '../../config.ts';
import { signInFailures } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';

// The security issue, finding 1: a client chooses its own address only through a proxy that
// TRUST_PROXY names (decisions §1).
describe('TRUST_PROXY', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['2', 2],
    ['127.0.0.1', ['127.0.0.1']],
    ['10.0.0.0/8, loopback', ['10.0.0.0/8', 'loopback']],
    ['::1,fd00::/8', ['::1', 'fd00::/8']],
  ])('reads %j as %j', (value, expected) => {
    expect(parseTrustProxy(value)).toEqual(expected);
  });

  it.each(['true', '*', 'proxy.example.com', '10.0.0.1/8/2', '1.5'])('refuses %j', (value) => {
    expect(() => parseTrustProxy(value)).toThrow(/TRUST_PROXY/);
  });

  async function failedFrom(t: TestApp, forwardedFor: string): Promise<string | undefined> {
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/authenticate',
      payload: { email: 'nobody@example.test', password: 'guess guess' },
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': forwardedFor },
    });
    const [row] = await t.db
      .select({ address: signInFailures.address })
      .from(signInFailures)
      .orderBy(desc(signInFailures.id))
      .limit(1);
    return row?.address;
  }

  it('believes X-Forwarded-For only from a trusted proxy', async () => {
    const trusting = await createTestApp({ config: { trustProxy: ['127.0.0.1'] } });
    expect(await failedFrom(trusting, '203.0.113.7')).toBe('203.0.113.7');
    const untrusting = await createTestApp({ config: { trustProxy: ['10.0.0.1'] } });
    expect(await failedFrom(untrusting, '203.0.113.7')).toBe('127.0.0.1');
  });
});
