import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { retirements } from '../../db/schema.ts';

export type RetirementRow = typeof retirements.$inferSelect;
export type NewRetirement = typeof retirements.$inferInsert;

export async function insertRetirement(
  db: Executor,
  values: NewRetirement,
): Promise<RetirementRow> {
  const [row] = await db.insert(retirements).values(values).returning();
  if (!row) throw new Error('retirement insert returned nothing');
  return row;
}

/** The retirement of a request, if it has one (at most one: retirements_request_key). */
export async function findRetirementOfRequest(
  db: Executor,
  options: { organizationId: string; requestId: string },
): Promise<RetirementRow | undefined> {
  const [row] = await db
    .select()
    .from(retirements)
    .where(
      and(
        eq(retirements.request_id, options.requestId),
        eq(retirements.organization_id, options.organizationId),
      ),
    );
  return row;
}

/** How many of a user's retirements are still pending (the Home tile 'Unretired Requests'). */
export async function countOwnerPendingRetirements(
  db: Executor,
  options: { organizationId: string; ownerId: string },
): Promise<number> {
  // Served by retirements_owner_status_idx.
  const [row] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(retirements)
    .where(
      and(
        eq(retirements.retirement_owner_id, options.ownerId),
        eq(retirements.status, 'pending'),
        eq(retirements.organization_id, options.organizationId),
      ),
    );
  return row?.total ?? 0;
}
