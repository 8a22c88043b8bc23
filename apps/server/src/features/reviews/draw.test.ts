import { approvalNumber } from '@imprest/domain/requests.ts';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildStaffedOrganization } from '../../../test/factories/organizations.ts';
import { requestBody, review, submitted } from '../../../test/factories/requests.ts';
import {
  buildOrganization,
  createTestApp,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.ts';
import { watchSocketTexts } from '../../../test/socket-writes.ts';
import { connect } from '../../db/client.ts';
import { approvalSequences } from '../../db/schema.ts';
import { drawApprovalNumber, drawnApprovalNumber } from './queries.ts';

// docs/decisions/0054: PostgreSQL draws the approval number and writes it, as the domain's
// approvalNumber would, into the statements sent after the draw in the same write.

let t: TestApp;
/** An app on one connection, whose every write to PostgreSQL can be watched. */
let single: TestApp;
let organizationId: string;
const year = 2031;

beforeAll(async () => {
  t = await createTestApp();
  single = await createTestApp({ poolSize: 1 });
  organizationId = await buildOrganization(t.db, 'Draw Org');
});

/** Sets the organisation's sequence so that the next draw gives `next`. */
async function sequenceBefore(next: number): Promise<void> {
  await t.db
    .delete(approvalSequences)
    .where(
      and(eq(approvalSequences.organization_id, organizationId), eq(approvalSequences.year, year)),
    );
  if (next > 1) {
    await t.db
      .insert(approvalSequences)
      .values({ organization_id: organizationId, year, last_value: next - 1 });
  }
}

describe('drawApprovalNumber', () => {
  it.each([1, 42, 99_999, 100_000, 1_234_567])(
    'writes number %i as approvalNumber does, and keeps it for the statements after it',
    async (next) => {
      await sequenceBefore(next);
      const [drawn, kept] = await t.db.transaction(async (tx) => {
        const number = await drawApprovalNumber(tx, { organizationId, year });
        const later = await tx.execute<{ value: string }>(
          sql`SELECT ${drawnApprovalNumber.value} AS value`,
        );
        return [number, later.rows[0]?.value];
      });
      expect(drawn).toBe(approvalNumber(year, next));
      expect(kept).toBe(drawn);
    },
  );

  it('writes the number where a text holds its marker, and leaves other text as given', async () => {
    await sequenceBefore(7);
    const { marker } = drawnApprovalNumber;
    const text = `Your request was approved: ${marker} ("${marker}")`;
    const written = await t.db.transaction(async (tx) => {
      await drawApprovalNumber(tx, { organizationId, year });
      const result = await tx.execute<{ value: string }>(
        sql`SELECT ${drawnApprovalNumber.into(text)} AS value`,
      );
      return result.rows[0]?.value;
    });
    const number = approvalNumber(year, 7);
    expect(written).toBe(`Your request was approved: ${number} ("${number}")`);
    expect(drawnApprovalNumber.into('No number here')).toBe('No number here');
    expect(marker).toMatch(/^[a-z0-9-]+$/);
  });

  it('keeps the number for its own transaction only, and a rolled-back draw leaves no gap', async () => {
    await sequenceBefore(3);
    await expect(
      t.db.transaction(async (tx) => {
        await drawApprovalNumber(tx, { organizationId, year });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const number = await t.db.transaction((tx) => drawApprovalNumber(tx, { organizationId, year }));
    expect(number).toBe(approvalNumber(year, 3));
  });

  it('refuses the number where nothing was drawn in the transaction, also after a draw on the same connection', async () => {
    const single = connect(t.databaseUrl, { max: 1 });
    try {
      const read = () =>
        single.transaction((tx) => tx.execute(sql`SELECT ${drawnApprovalNumber.value} AS value`));
      await expect(read()).rejects.toMatchObject({
        cause: { message: 'unrecognized configuration parameter "imprest.approval_number"' },
      });
      await sequenceBefore(9);
      await single.transaction((tx) => drawApprovalNumber(tx, { organizationId, year }));
      // The setting now exists on the connection, empty outside the transaction that drew it.
      await expect(read()).rejects.toMatchObject({
        cause: {
          message: expect.stringContaining(
            'nothing was drawn in this transaction for imprest.approval_number',
          ),
        },
      });
    } finally {
      await single.$client.end();
    }
  });

  it('goes out in the same write as the writes that carry the number and the COMMIT', async () => {
    const writes = await watchSocketTexts(single.db);
    const people = await buildStaffedOrganization(single.db);
    const request = await submitted(single.app, people.staff, requestBody('6105'));
    const [first, second] = request.reviews;
    if (!first || !second) throw new Error('no chain');
    const answer = (by: TestUser, id: string) =>
      review(single.app, by, { id, request_id: request.id, status: 'approved' });
    expect((await answer(people.finance, first.id)).statusCode).toBe(200);
    writes.length = 0;
    const approved = await answer(people.secretary, second.id);
    expect(approved.statusCode).toBe(200);
    expect(approved.json().approval_number).toMatch(/^AP-\d{4}-00001$/);
    // The sequence row is locked from the draw to the COMMIT: both leave in one write, with the
    // request's update, its audit event and the owner's e-mail, so no turn of the server falls
    // between them.
    const drawing = writes.filter((text) => text.includes('"approval_sequences"'));
    expect(drawing).toHaveLength(1);
    const [write = ''] = drawing;
    const order = ['"approval_sequences"', 'update "requests"', '"audit_events"', '"email_outbox"'];
    const at = order.map((statement) => write.indexOf(statement));
    expect(at.every((position) => position >= 0)).toBe(true);
    expect([...at].sort((x, y) => x - y)).toEqual(at);
    expect(write.endsWith(`COMMIT\0`)).toBe(true);
  });
});
