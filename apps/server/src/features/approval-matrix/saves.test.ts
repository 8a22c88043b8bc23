import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../../db/schema.ts';
import { appWithStaffedOrganization } from '../../../test/factories/organizations.ts';
import { auth, type TestApp, type TestUser } from '../../../test/helpers.ts';

// What a save of the approval matrix records (docs/decisions/0019): nothing when it changes
// nothing, and, when two saves race, each the change it made (the later starts from the earlier).

let t: TestApp;
let organizationId: string;
let director: TestUser;

beforeAll(async () => {
  ({
    t,
    org: { organizationId, director },
  } = await appWithStaffedOrganization());
});

const url = '/api/v1/approval-matrix';
const replace = (user: TestUser, body: unknown) =>
  t.app.inject({ method: 'PUT', url, headers: auth(user), payload: body as object });
const matrixEvents = () =>
  t.db
    .select()
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.organization_id, organizationId),
        eq(auditEvents.action, 'approval_matrix.updated'),
      ),
    )
    .orderBy(auditEvents.id);

const matrix = (threshold: number) => ({
  rows: [
    { start_value: 0, end_value: threshold, description: 'Small', user_role: ['finance_officer'] },
    {
      start_value: threshold,
      end_value: null,
      description: 'Large',
      user_role: ['finance_officer', 'director'],
    },
  ],
});

type Row = Record<string, unknown>;
const withoutIds = (rows: unknown) => (rows as Row[]).map(({ id: _id, ...rest }) => rest);

describe('the audit events of PUT approval-matrix', () => {
  // First: the organisation still has the default matrix.
  it('saving the default rows while the default is in force writes nothing and keeps it the default', async () => {
    const current = await t.app.inject({ method: 'GET', url, headers: auth(director) });
    expect(current.json().is_default).toBe(true);
    const saved = await replace(director, { rows: withoutIds(current.json().rows) });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().is_default).toBe(true);
    // This used to store the rows and record an event whose changes were null.
    expect(await matrixEvents()).toEqual([]);
  });

  it('saving the same matrix again writes no audit event (0019: "An edit that changes nothing writes nothing")', async () => {
    expect((await replace(director, matrix(1_000))).statusCode).toBe(200);
    const before = (await matrixEvents()).length;
    const again = await replace(director, matrix(1_000));
    expect(again.statusCode).toBe(200);
    const after = await matrixEvents();
    // This used to write one more event whose rows differed only in their renewed ids.
    expect(after.length).toBe(before);
  });

  it("two saves at once each record what they really changed (the later one starts from the earlier one's rows)", async () => {
    expect((await replace(director, matrix(5_000))).statusCode).toBe(200);
    let failures = 0;
    for (let round = 0; round < 5; round += 1) {
      const start = (await matrixEvents()).length;
      const [a, b] = await Promise.all([
        replace(director, matrix(10_000 + round * 2)),
        replace(director, matrix(10_001 + round * 2)),
      ]);
      expect(a.statusCode).toBe(200);
      expect(b.statusCode).toBe(200);
      const events = (await matrixEvents()).slice(start);
      expect(events).toHaveLength(2);
      const [first, second] = events as [(typeof events)[number], (typeof events)[number]];
      const firstTo = withoutIds((first.changes as { rows: { to: unknown } }).rows.to);
      const secondFrom = withoutIds((second.changes as { rows: { from: unknown } }).rows.from);
      if (JSON.stringify(firstTo) !== JSON.stringify(secondFrom)) failures += 1;
    }
    // The later save's `from` used to be the matrix both read before either took the lock.
    expect(failures).toBe(0);
  });
});

describe('the order of a row\'s reviewers (spec §4: "ordered by the fixed hierarchy")', () => {
  it('refuses roles out of the hierarchy with 400 and changes nothing', async () => {
    const before = await t.app.inject({ method: 'GET', url, headers: auth(director) });
    const response = await replace(director, {
      rows: [
        {
          start_value: 0,
          end_value: null,
          description: 'Upside down',
          user_role: ['director', 'executive_secretary', 'finance_officer'],
        },
      ],
    });
    // Its requests used to be reviewed by the director first.
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error).toContain(
      'Reviewer roles follow the hierarchy: Petty Cash Custodian, Finance Officer, Executive Secretary, Director, Board Chairman',
    );
    const after = await t.app.inject({ method: 'GET', url, headers: auth(director) });
    expect(after.json()).toEqual(before.json());
  });
});
