import { todayIn } from '@imprest/domain/requests.ts';
import { addDays } from '@imprest/domain/retirements.ts';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { delegations } from '../../db/schema.ts';
import {
  auth,
  buildOrganization,
  buildUser,
  createTestApp,
  type TestApp,
} from '../../../test/helpers.ts';

// A delegation being created while its delegate changes position (docs/decisions/0019: a new
// position ends the user's live delegations, as delegate too). The creation holds the delegate's
// row, so the change of position waits for it and then ends the delegation it created.

const orgTimezone = 'Africa/Dar_es_Salaam';
let t: TestApp;
let organizationId: string;
let watcher: pg.Client;

beforeAll(async () => {
  t = await createTestApp({ config: { orgTimezone } });
  organizationId = await buildOrganization(t.db, 'Race Org');
  watcher = new pg.Client({ connectionString: t.databaseUrl });
  await watcher.connect();
});

afterAll(async () => {
  await watcher.end();
});

const day = (offset: number) => addDays(todayIn(orgTimezone), offset);

/** The statements waiting for a lock, once there are `count` of them. */
async function waitingStatements(count: number): Promise<string[]> {
  for (let attempt = 0; attempt < 400; attempt += 1) {
    const { rows } = await watcher.query<{ query: string }>(
      // This test's database only: other test files share the server and wait on locks too.
      `SELECT query FROM pg_stat_activity
       WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    if (rows.length >= count) return rows.map((row) => row.query);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`fewer than ${count} statements ever waited for a lock`);
}

describe('a delegate’s new position while the delegation is being created', () => {
  it('ends the delegation the creation made: no live delegation names a delegate of another position', async () => {
    const user = (role: Parameters<typeof buildUser>[1]['role'], fullname: string) =>
      buildUser(t.db, { organizationId, role, fullname });
    const director = await user('director', 'Director One');
    const director2 = await user('director', 'Director Two');
    const secretary = await user('executive_secretary', 'Sec');
    const custodian = await user('petty_cash_custodian', 'Cust');

    // Another session holds the creating director's row, so the creation, past its checks of the
    // delegator and the delegate, waits at its INSERT (the foreign key on created_by).
    const blocker = new pg.Client({ connectionString: t.databaseUrl });
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [director.id]);
    const creation = t.app.inject({
      method: 'POST',
      url: '/api/v1/delegations',
      headers: auth(director),
      payload: {
        delegator_id: secretary.id,
        delegate_id: custodian.id,
        starts_on: day(0),
        ends_on: day(3),
      },
    });
    expect((await waitingStatements(1)).join(' ')).toMatch(/insert into "delegations"/i);

    // Meanwhile the other director promotes the delegate: custodian → finance officer.
    const promotion = t.app.inject({
      method: 'PUT',
      url: '/api/v1/users',
      headers: auth(director2),
      payload: { user_id: custodian.id, role: 'finance_officer' },
    });
    await waitingStatements(2);
    await blocker.query('COMMIT');
    await blocker.end();
    const [created, promoted] = await Promise.all([creation, promotion]);
    expect(created.statusCode, created.body).toBe(201);
    expect(promoted.statusCode, promoted.body).toBe(200);

    const rows = await t.db
      .select()
      .from(delegations)
      .where(eq(delegations.delegate_id, custodian.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.ended_at).not.toBeNull();
  });
});
