import { beforeAll, describe, expect, it } from 'vitest';
import { asc } from 'drizzle-orm';
import { auditEvents, organizations, users } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

const body = {
  organization_name: 'Acme Foundation',
  fullname: 'Zawadi Director',
  email: 'zawadi@acme.test',
  password: 'a long enough password',
};

describe('first-run set-up', () => {
  it('refuses bad input with 400 and creates nothing', async () => {
    for (const payload of [{}, { ...body, password: 'short' }, { ...body, email: 'x' }]) {
      const response = await t.app.inject({ method: 'POST', url: '/api/v1/setup', payload });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toMatch(/^Invalid input/);
    }
    // A common password (docs/decisions/0010) is refused by the server's list.
    const common = await t.app.inject({
      method: 'POST',
      url: '/api/v1/setup',
      payload: { ...body, password: 'password123' },
    });
    expect(common.statusCode).toBe(400);
    expect(common.json().error).toBe(
      'This password is among the 10,000 most common passwords; choose another.',
    );
    expect(await t.db.$count(users)).toBe(0);
    expect(await t.db.$count(organizations)).toBe(0);
  });

  it('says set-up is needed, creates the organisation and its director (201), then refuses (409)', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/setup' })).json()).toEqual({
      needs_setup: true,
    });
    const created = await t.app.inject({ method: 'POST', url: '/api/v1/setup', payload: body });
    expect(created.statusCode).toBe(201);
    expect(created.json().user).toMatchObject({
      fullname: 'Zawadi Director',
      role: 'director',
      system_role: 'director',
      organization_name: 'Acme Foundation',
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/setup' })).json()).toEqual({
      needs_setup: false,
    });
    // The trail records the new account and its sign-in, as every other path does.
    const director = created.json().user as { id: string; organization_id: string };
    const trail = await t.db.select().from(auditEvents).orderBy(asc(auditEvents.id));
    expect(trail).toMatchObject([
      {
        organization_id: director.organization_id,
        actor_id: director.id,
        actor_name: 'Zawadi Director',
        action: 'user.created',
        object_type: 'user',
        object_id: director.id,
        changes: {
          fullname: { to: 'Zawadi Director' },
          email: { to: 'zawadi@acme.test' },
          role: { to: 'director' },
          system_role: { to: 'director' },
        },
        ip: '127.0.0.1',
      },
      {
        actor_id: director.id,
        action: 'auth.signed_in',
        object_type: 'user',
        object_id: director.id,
        changes: null,
        ip: '127.0.0.1',
      },
    ]);
    expect(JSON.stringify(trail)).not.toMatch(/password/);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/v1/setup',
      payload: { ...body, email: 'other@acme.test' },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: 'Imprest is already set up. Sign in instead.' });
    // Whatever the body: an empty one, or a common password, is no reason to answer otherwise.
    for (const payload of [{}, { ...body, password: 'password123' }]) {
      const refused = await t.app.inject({ method: 'POST', url: '/api/v1/setup', payload });
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toEqual({ error: 'Imprest is already set up. Sign in instead.' });
    }
    expect(await t.db.$count(auditEvents)).toBe(2);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/authenticate',
      payload: { email: body.email, password: body.password },
    });
    expect(signIn.statusCode).toBe(200);
    expect(await t.db.$count(users)).toBe(1);
  });
});
