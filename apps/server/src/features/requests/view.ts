import { and, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import { budgets, requests } from '../../db/schema.ts';
import { ownerOldestDueDateQuery } from '../retirements/queries.ts';
import {
  ownedRequests,
  ownerUnretiredTotalQuery,
  recordColumns,
  type RequestRecord,
  type RequestRow,
} from './queries.ts';

/** One entry of a request's version history. */
export type VersionRow = Pick<RequestRow, 'id' | 'version' | 'created_at' | 'current_status'>;

/** A request as its view shows it, but for its reviews and retirement (read beside it). */
export type RequestViewRecord = RequestRecord & {
  history: VersionRow[];
  ownerUnretiredTotal: number;
  ownerOldestDueDate: string | null;
};

/** A version as the history's JSON holds it: its time as ISO text. */
type HistoryJson = Omit<VersionRow, 'created_at'> & { created_at: string };

/** The versions of the request's chain, read in the request's own statement. */
const versions = alias(requests, 'versions');

/**
 * One request (any version) of an organisation with its budget's name, its chain's version
 * history and its owner's unretired total and oldest due date, in one statement: the request view
 * and every write's answer read it (issue 13: five statements were one round trip each).
 */
export async function findRequestView(
  db: Executor,
  options: { organizationId: string; id: string },
): Promise<RequestViewRecord | undefined> {
  const owner = { organizationId: requests.organization_id, ownerId: requests.request_owner_id };
  const [row] = await db
    .select({
      ...recordColumns,
      history: sql<HistoryJson[] | null>`(${db
        .select({
          versions: sql`json_agg(json_build_object(
            'id', ${versions.id}, 'version', ${versions.version},
            'created_at', to_char(${versions.created_at} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
            'current_status', ${versions.current_status}) ORDER BY ${versions.version})`,
        })
        .from(versions)
        .where(eq(versions.chain_id, requests.chain_id))})`,
      unretiredTotal: sql<string>`(${ownerUnretiredTotalQuery(db, ownedRequests, owner)})`,
      oldestDueDate: sql<string | null>`(${ownerOldestDueDateQuery(db, owner)})`,
    })
    .from(requests)
    .innerJoin(budgets, eq(budgets.id, requests.budget_id))
    .where(and(eq(requests.id, options.id), eq(requests.organization_id, options.organizationId)));
  if (!row) return undefined;
  const { history, unretiredTotal, oldestDueDate, ...record } = row;
  return {
    ...record,
    history: (history ?? []).map((version) => ({
      ...version,
      created_at: new Date(version.created_at),
    })),
    ownerUnretiredTotal: Number(unretiredTotal ?? 0),
    ownerOldestDueDate: oldestDueDate,
  };
}
