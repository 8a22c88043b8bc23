import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { buildUser, createTestApp, buildOrganization } from '../../test/helpers.ts';
import { rateLimits } from './rate-limit.ts';

// The security issue, finding 5: the public calls that send e-mail or hash passwords are limited
// per address and per account, with counters every server process shares.
const t = await createTestApp();
const organizationId = await buildOrganization(t.db);
const owner = await buildUser(t.db, { organizationId, email: 'forgetful@example.test' });

function post(url: string, payload: object, address: string, app = t.app) {
  return app.inject({ method: 'POST', url: `/api/v1/${url}`, payload, remoteAddress: address });
}

describe('rate limits on public calls', () => {
  it('forgot-password: a few e-mails per account, whatever the addresses asking', async () => {
    const { max } = rateLimits.forgotPasswordPerAccount;
    for (let i = 0; i < max; i += 1) {
      const sent = await post('forgot-password', { email: owner.email }, `10.20.0.${i}`);
      expect(sent.statusCode).toBe(200);
    }
    const refused = await post('forgot-password', { email: owner.email }, '10.20.1.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toMatch(
      /^Too many requests\. Please wait \d+ (seconds?|minutes?) and try again\.$/,
    );
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('forgot-password: one address asking for many accounts is refused past its limit', async () => {
    const { max } = rateLimits.forgotPasswordPerAddress;
    for (let i = 0; i < max; i += 1) {
      expect(
        (await post('forgot-password', { email: `nobody${i}@example.test` }, '10.21.0.1'))
          .statusCode,
      ).toBe(404);
    }
    const refused = await post('forgot-password', { email: 'nobody@example.test' }, '10.21.0.1');
    expect(refused.statusCode).toBe(429);
    // Another address is not affected.
    expect(
      (await post('forgot-password', { email: 'nobody@example.test' }, '10.21.0.2')).statusCode,
    ).toBe(404);
  });

  it('counts are shared by every server process on the database', async () => {
    const second = await buildApp(t.context, { logger: false });
    await second.ready();
    try {
      const { max } = rateLimits.resetPerAddress;
      const body = { email: owner.email, token: 'not-a-real-token', password: 'a fine new one' };
      for (let i = 0; i < max; i += 1) {
        const app = i % 2 === 0 ? t.app : second;
        expect((await post('forgot-password/validate', body, '10.22.0.1', app)).statusCode).toBe(
          400,
        );
      }
      expect((await post('forgot-password/validate', body, '10.22.0.1', second)).statusCode).toBe(
        429,
      );
      expect((await post('forgot-password/validate', body, '10.22.0.1')).statusCode).toBe(429);
    } finally {
      await second.close();
    }
  });

  it('set-up is limited per address, and answers 409 without hashing once set up', async () => {
    const { max } = rateLimits.setupPerAddress;
    const body = {
      organization_name: 'Late Org',
      fullname: 'Late Comer',
      email: 'late@example.test',
      password: 'a long enough password',
    };
    for (let i = 0; i < max; i += 1) {
      expect((await post('setup', body, '10.23.0.1')).statusCode).toBe(409);
    }
    expect((await post('setup', body, '10.23.0.1')).statusCode).toBe(429);
  });

  it('upload slots are limited per user, not per address', async () => {
    const { max } = rateLimits.uploadSlotsPerUser;
    const uploader = await buildUser(t.db, { organizationId });
    const colleague = await buildUser(t.db, { organizationId });
    const slot = (user: { token: string }) =>
      t.app.inject({
        method: 'GET',
        url: '/api/v1/files/presigned-post-url?file_name=receipt.pdf',
        headers: { authorization: `Bearer ${user.token}` },
      });
    for (let i = 0; i < max; i += 1) expect((await slot(uploader)).statusCode).toBe(200);
    const refused = await slot(uploader);
    expect(refused.statusCode).toBe(429);
    expect((await slot(colleague)).statusCode).toBe(200);
  });
});
