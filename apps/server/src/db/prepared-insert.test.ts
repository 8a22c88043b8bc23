import { randomUUID } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOrganization, createTestApp, type TestApp } from '../../test/helpers.ts';
import { connect, type Database } from './client.ts';
import { preparedInsert } from './prepared-insert.ts';
import { auditEvents, emailOutbox } from './schema.ts';

// Issue 13: an INSERT prepared once per shape of its rows must write what Drizzle's own INSERT
// writes: the table's defaults for what a row leaves out (drawn anew for every row), each value
// through its column's encoder, on the connection of the handle it is given (a transaction's).

let t: TestApp;
let one: Database;
let organizationId: string;

type OutboxRow = typeof emailOutbox.$inferInsert & { idempotency_key: string };
const insertOutbox = preparedInsert<OutboxRow, { id: string; key: string }>(
  emailOutbox,
  'test_insert_outbox',
  (insert) =>
    insert
      .onConflictDoNothing({ target: emailOutbox.idempotency_key })
      .returning({ id: emailOutbox.id, key: emailOutbox.idempotency_key }),
);
const insertAudit = preparedInsert<typeof auditEvents.$inferInsert>(
  auditEvents,
  'test_insert_audit',
);

function outbox(overrides: Partial<OutboxRow> = {}): OutboxRow {
  return {
    organization_id: organizationId,
    to_address: 'someone@example.test',
    subject: 'Subject',
    body: 'Body',
    idempotency_key: `test.${randomUUID()}`,
    ...overrides,
  };
}

/** An audit event of a request, by nobody in particular. */
function auditRow(objectId: string, changes: unknown): typeof auditEvents.$inferInsert {
  return {
    organization_id: organizationId,
    actor_id: null,
    actor_name: 'Test',
    action: 'request.submitted',
    object_type: 'request',
    object_id: objectId,
    changes,
    request_id: null,
    ip: null,
  };
}

async function outboxRows(keys: string[]) {
  return t.db.select().from(emailOutbox).where(inArray(emailOutbox.idempotency_key, keys));
}

async function preparedNames(db: Database, prefix: string): Promise<string[]> {
  const result = await db.execute<{ name: string }>(
    sql`SELECT name FROM pg_prepared_statements WHERE name LIKE ${`${prefix}%`} ORDER BY name`,
  );
  return result.rows.map((row) => row.name);
}

beforeAll(async () => {
  t = await createTestApp();
  one = connect(t.databaseUrl, { max: 1 });
  organizationId = await buildOrganization(t.db);
});

afterAll(async () => {
  await one.$client.end();
});

describe('preparedInsert', () => {
  it("gives each row the table's defaults for what it leaves out, drawn anew each time", async () => {
    const rows = [outbox(), outbox(), outbox({ status: 'logged' })];
    const first = await insertOutbox(one, rows.slice(0, 2));
    const second = await insertOutbox(one, [rows[2] as OutboxRow]);
    expect(first.map((row) => row.key)).toEqual(rows.slice(0, 2).map((row) => row.idempotency_key));
    expect(second.map((row) => row.key)).toEqual([rows[2]?.idempotency_key]);
    const stored = await outboxRows(rows.map((row) => row.idempotency_key));
    expect(new Set(stored.map((row) => row.id)).size).toBe(3);
    expect(stored.map((row) => row.status).sort()).toEqual(['logged', 'queued', 'queued']);
    for (const row of stored) expect(row.created_at).toBeInstanceOf(Date);
  });

  it('takes a value given as undefined for the default, as Drizzle does', async () => {
    const row = outbox({ status: undefined, kind: undefined });
    await insertOutbox(one, [row]);
    const [stored] = await outboxRows([row.idempotency_key]);
    expect(stored).toMatchObject({ status: 'queued', kind: 'other' });
  });

  it('prepares one statement per shape on a connection, and reuses it', async () => {
    // Rows with html: a shape no other test sends.
    const before = await preparedNames(one, 'test_insert_outbox');
    for (let call = 0; call < 3; call += 1) await insertOutbox(one, [outbox({ html: '<p>' })]);
    const afterOneRow = await preparedNames(one, 'test_insert_outbox');
    expect(afterOneRow.length).toBe(before.length + 1);
    const three = () => [1, 2, 3].map(() => outbox({ html: '<p>' }));
    await insertOutbox(one, three());
    await insertOutbox(one, three());
    const afterThreeRows = await preparedNames(one, 'test_insert_outbox');
    expect(afterThreeRows.length).toBe(afterOneRow.length + 1);
    expect(afterThreeRows).toEqual(expect.arrayContaining(afterOneRow));
  });

  it('answers only the new rows on a repeated key (ON CONFLICT DO NOTHING … RETURNING)', async () => {
    const kept = outbox({ subject: 'First' });
    await insertOutbox(one, [kept]);
    const fresh = outbox();
    const answered = await insertOutbox(one, [{ ...kept, subject: 'Second' }, fresh]);
    expect(answered.map((row) => row.key)).toEqual([fresh.idempotency_key]);
    const [stored] = await outboxRows([kept.idempotency_key]);
    expect(stored?.subject).toBe('First');
  });

  it("sends each value through its column's encoder (jsonb)", async () => {
    const objectId = randomUUID();
    const changes = { amount: { from: '1.00', to: '2.50' }, note: 'it\'s "quoted"' };
    await insertAudit(one, [auditRow(objectId, changes)]);
    const [stored] = await t.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.object_id, objectId));
    expect(stored?.changes).toEqual(changes);
    expect(stored?.at).toBeInstanceOf(Date);
  });

  it('keeps a null as SQL NULL, as a built INSERT does (not jsonb null, not an encoder error)', async () => {
    const objectId = randomUUID();
    await insertAudit(one, [auditRow(objectId, null)]);
    const found = await t.db.execute<{ is_null: boolean }>(
      sql`SELECT changes IS NULL AS is_null FROM audit_events WHERE object_id = ${objectId}`,
    );
    expect(found.rows).toEqual([{ is_null: true }]);
    const row = outbox({ sent_at: null, claimed_at: null, html: null });
    await insertOutbox(one, [row]);
    const [stored] = await outboxRows([row.idempotency_key]);
    expect(stored).toMatchObject({ sent_at: null, claimed_at: null, html: null });
  });

  it('inserts rows of different shapes, SQL values and many rows as Drizzle builds them', async () => {
    const mixed = [outbox({ error: 'x' }), outbox()];
    expect(await insertOutbox(one, mixed)).toHaveLength(2);
    const dated = outbox({ sent_at: sql`now() - interval '1 day'` as unknown as Date });
    await insertOutbox(one, [dated]);
    const many = Array.from({ length: 40 }, () => outbox());
    expect(await insertOutbox(one, many)).toHaveLength(40);
    const stored = await outboxRows([...mixed, dated, ...many].map((row) => row.idempotency_key));
    expect(stored).toHaveLength(43);
    expect(stored.filter((row) => row.error === 'x')).toHaveLength(1);
    const [day] = await outboxRows([dated.idempotency_key]);
    expect(Date.now() - (day?.sent_at?.getTime() ?? 0)).toBeGreaterThan(23 * 3600_000);
  });

  it("runs on a transaction's connection: rolled back with it", async () => {
    const row = outbox();
    await insertOutbox(t.db, [outbox()]);
    await expect(
      t.db.transaction(async (tx) => {
        await insertOutbox(tx, [row]);
        expect(
          await tx
            .select()
            .from(emailOutbox)
            .where(eq(emailOutbox.idempotency_key, row.idempotency_key)),
        ).toHaveLength(1);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await outboxRows([row.idempotency_key])).toHaveLength(0);
  });
});
