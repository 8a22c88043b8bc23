import { todayIn } from '@imprest/domain/requests.ts';
import { addDays } from '@imprest/domain/retirements.ts';
import type { Role } from '@imprest/domain/enums.ts';
import { and, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox, users } from '../../db/schema.ts';
import {
  buildStaffedOrganization,
  type StaffedOrganization,
} from '../../../test/factories/organizations.ts';
import {
  auth,
  buildUser,
  createTestApp,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.ts';
import { saveEmailHtml } from '../../../test/smtp.ts';

const orgTimezone = 'Africa/Dar_es_Salaam';
let t: TestApp;
let org: StaffedOrganization;

beforeAll(async () => {
  t = await createTestApp({ config: { orgTimezone } });
  org = await buildStaffedOrganization(t.db);
});

const day = (offset: number) => addDays(todayIn(orgTimezone), offset);
/** `day(offset)` as the e-mails write it (en-GB). */
const written = (offset: number) => day(offset).split('-').reverse().join('/');

/** A fresh user of the organisation, so each test's e-mails are its own. */
const person = (role: Role, fullname: string) =>
  buildUser(t.db, { organizationId: org.organizationId, role, fullname });

async function named(user: TestUser, body: Record<string, unknown>): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/v1/delegations',
    headers: auth(user),
    payload: body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: string }>().id;
}

async function ended(user: TestUser, id: string): Promise<void> {
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/v1/delegations/${id}/end`,
    headers: auth(user),
  });
  expect(response.statusCode, response.body).toBe(200);
}

/** The queued delegation e-mails to these people, oldest first (one transaction's by subject). */
async function mailTo(kind: 'delegation_named' | 'delegation_ended', people: TestUser[]) {
  return t.db
    .select({
      to: emailOutbox.to_address,
      subject: emailOutbox.subject,
      body: emailOutbox.body,
      html: emailOutbox.html,
    })
    .from(emailOutbox)
    .where(
      and(
        eq(emailOutbox.kind, kind),
        inArray(
          emailOutbox.to_address,
          people.map((one) => one.email),
        ),
      ),
    )
    .orderBy(emailOutbox.created_at, emailOutbox.subject);
}

describe('delegation e-mails', () => {
  it('naming a delegate tells the delegate whose steps come and when; the delegator who did it gets none', async () => {
    const secretary = await person('executive_secretary', 'Daudi Away');
    const delegate = await person('director', 'Eshe Standin');
    await named(secretary, {
      delegate_id: delegate.id,
      starts_on: day(1),
      ends_on: day(4),
      note: 'Annual leave',
    });
    const mail = await mailTo('delegation_named', [secretary, delegate]);
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({
      to: delegate.email,
      subject: `You review for Daudi Away from ${written(1)} to ${written(4)}`,
    });
    const body = mail[0]?.body ?? '';
    expect(body).toContain('Hello Eshe Standin,');
    expect(body).toContain(
      `Daudi Away named you their delegate from ${written(1)} to ${written(4)}, both days included.`,
    );
    expect(body).toContain("On those days Daudi Away's review steps show on your Home");
    expect(body).toContain('Note: Annual leave');
    expect(body).toContain(`${t.context.config.appUrl.replace(/\/$/, '')}/dashboard`);
    // For a person to look at, with the other e-mails (.tmp/emails).
    await saveEmailHtml('13-delegation-named', mail[0]?.html ?? '');
  });

  it('the director naming one for someone tells both, in their own words, and not the director', async () => {
    const secretary = await person('executive_secretary', 'Daudi Away');
    const delegate = await person('finance_officer', 'Chausiku Standin');
    await named(org.director, {
      delegator_id: secretary.id,
      delegate_id: delegate.id,
      starts_on: day(0),
      ends_on: day(2),
    });
    const mail = await mailTo('delegation_named', [secretary, delegate, org.director]);
    expect(mail.map((one) => [one.to, one.subject])).toEqual([
      [secretary.email, `Chausiku Standin reviews for you from ${written(0)} to ${written(2)}`],
      [delegate.email, `You review for Daudi Away from ${written(0)} to ${written(2)}`],
    ]);
    expect(mail[0]?.body).toContain(
      `${org.director.fullname} named Chausiku Standin your delegate from ${written(0)} to ${written(2)}`,
    );
    expect(mail[1]?.body).toContain(
      `${org.director.fullname} named you Daudi Away's delegate from ${written(0)} to ${written(2)}`,
    );
    expect(mail[1]?.body).not.toContain('Note:');
  });

  it('ending one early tells the delegate, and the delegator when the director ended it', async () => {
    const secretary = await person('executive_secretary', 'Daudi Away');
    const delegate = await person('director', 'Eshe Standin');
    const first = await named(secretary, {
      delegate_id: delegate.id,
      starts_on: day(0),
      ends_on: day(1),
    });
    await ended(secretary, first);
    const second = await named(secretary, {
      delegate_id: delegate.id,
      starts_on: day(3),
      ends_on: day(5),
    });
    await ended(org.director, second);

    const mail = await mailTo('delegation_ended', [secretary, delegate, org.director]);
    expect(mail.map((one) => [one.to, one.subject])).toEqual([
      [delegate.email, 'You no longer review for Daudi Away'],
      [secretary.email, 'Eshe Standin no longer reviews for you'],
      [delegate.email, 'You no longer review for Daudi Away'],
    ]);
    expect(mail[0]?.body).toContain(
      `Daudi Away ended their delegation to you (${written(0)} to ${written(1)}).`,
    );
    expect(mail[1]?.body).toContain('Your review steps come to you alone again.');
    expect(mail[2]?.body).toContain(
      `${org.director.fullname} ended Daudi Away's delegation to you (${written(3)} to ${written(5)}).`,
    );
  });

  it('a delegate who muted notifications gets none; a refused naming queues none', async () => {
    const secretary = await person('executive_secretary', 'Daudi Away');
    const delegate = await person('director', 'Eshe Muted');
    await t.db
      .update(users)
      .set({ settings: JSON.stringify({ mute_notification: true }) })
      .where(eq(users.id, delegate.id));
    await named(secretary, { delegate_id: delegate.id, starts_on: day(0), ends_on: day(1) });
    const clash = await t.app.inject({
      method: 'POST',
      url: '/api/v1/delegations',
      headers: auth(secretary),
      payload: { delegate_id: org.custodian.id, starts_on: day(1), ends_on: day(2) },
    });
    expect(clash.statusCode).toBe(409);
    expect(await mailTo('delegation_named', [secretary, delegate, org.custodian])).toEqual([]);
  });
});
