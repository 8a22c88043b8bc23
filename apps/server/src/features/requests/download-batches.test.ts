import { inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { requests } from '../../db/schema.ts';
import { buildStaffedOrganization } from '../../../test/factories/organizations.ts';
import { requestBody, submitted } from '../../../test/factories/requests.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { requestBatch } from './queries.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

describe("a download's batches", () => {
  it('continue from the boundary row to the microsecond, so rows of its millisecond are kept', async () => {
    const { organizationId, staff, budget } = await buildStaffedOrganization(t.db);
    const ids: string[] = [];
    for (let index = 0; index < 4; index += 1) {
      ids.push((await submitted(t.app, staff, requestBody(budget.code))).id);
    }
    // Three requests in one millisecond (a Date cannot tell them apart) and one just before it.
    const times = [
      '2026-01-05 10:00:00.1229+00',
      '2026-01-05 10:00:00.123100+00',
      '2026-01-05 10:00:00.123400+00',
      '2026-01-05 10:00:00.123456+00',
    ];
    for (const [index, id] of ids.entries()) {
      await t.db
        .update(requests)
        .set({ created_at: sql`${times[index]}::timestamptz` })
        .where(inArray(requests.id, [id]));
    }

    const read: string[] = [];
    let after: { position: string; id: string } | undefined;
    for (;;) {
      const [row] = await requestBatch(t.db, { organizationId, limit: 1, after });
      if (!row) break;
      read.push(row.id);
      after = row;
    }
    expect(read).toEqual([...ids].reverse());
  });
});
