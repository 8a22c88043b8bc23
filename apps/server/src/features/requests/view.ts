import { and, asc, eq, getTableColumns, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import { jsonObjectOf, rowFromJson, type JsonRow } from '../../db/json-rows.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { budgets, requests, retirementReviews, retirements, reviews } from '../../db/schema.ts';
import {
  ownerOldestDueDateQuery,
  type RetirementRecord,
  type RetirementReviewRow,
  type RetirementRow,
} from '../retirements/queries.ts';
import type { ReviewRow } from '../reviews/queries.ts';
import {
  ownerUnretiredTotalQuery,
  recordColumns,
  type RequestRecord,
  type RequestRow,
} from './queries.ts';

/** One entry of a request's version history. */
export type VersionRow = Pick<RequestRow, 'id' | 'version' | 'created_at' | 'current_status'>;

/** Everything the view of one request shows, read together. */
export type RequestView = {
  record: RequestRecord;
  reviews: ReviewRow[];
  history: VersionRow[];
  retirement: { record: RetirementRecord; reviews: RetirementReviewRow[] } | undefined;
  ownerUnretiredTotal: number;
  ownerOldestDueDate: string | null;
};

/** The versions of the request's chain. */
const versions = alias(requests, 'versions');
const versionColumns = {
  id: versions.id,
  version: versions.version,
  created_at: versions.created_at,
  current_status: versions.current_status,
};
const reviewColumns = getTableColumns(reviews);
const retirementColumns = getTableColumns(retirements);
const retirementReviewColumns = getTableColumns(retirementReviews);

const jsonArray = (object: ReturnType<typeof jsonObjectOf>, ...order: ReturnType<typeof asc>[]) =>
  sql`coalesce(json_agg(${object} ORDER BY ${sql.join(order, sql`, `)}), '[]'::json)`;

/**
 * The request view's statement, built once per pool and prepared under a name (issue 13): with its
 * correlated subqueries PostgreSQL spent about 4 ms planning it on every call, more than running it
 * (2 ms), and every write's answer reads it. Its parameters are the request's id and organisation
 * only, so one generic plan (a primary-key lookup) serves every call.
 */
const requestViewQuery = preparedOnce((db: Executor) => {
  const owner = { organizationId: requests.organization_id, ownerId: requests.request_owner_id };
  return db
    .select({
      ...recordColumns,
      reviewsJson: sql<JsonRow[]>`(${db
        .select({ rows: jsonArray(jsonObjectOf(reviewColumns), asc(reviews.step)) })
        .from(reviews)
        .where(eq(reviews.request_id, requests.id))})`,
      historyJson: sql<JsonRow[]>`(${db
        .select({ rows: jsonArray(jsonObjectOf(versionColumns), asc(versions.version)) })
        .from(versions)
        .where(eq(versions.chain_id, requests.chain_id))})`,
      // A request has at most one retirement (unique request_id).
      retirementJson: sql<(JsonRow & { reviews: JsonRow[] }) | null>`(${db
        .select({
          row: sql`json_build_object('row', ${jsonObjectOf(retirementColumns)}, 'reviews', (${db
            .select({
              rows: jsonArray(
                jsonObjectOf(retirementReviewColumns),
                asc(retirementReviews.round),
                asc(retirementReviews.step),
              ),
            })
            .from(retirementReviews)
            .where(eq(retirementReviews.retirement_id, retirements.id))}))`,
        })
        .from(retirements)
        .where(
          and(
            eq(retirements.request_id, requests.id),
            eq(retirements.organization_id, requests.organization_id),
          ),
        )})`,
      unretiredTotal: sql<string>`(${ownerUnretiredTotalQuery(db, owner)})`,
      oldestDueDate: sql<string | null>`(${ownerOldestDueDateQuery(db, owner)})`,
    })
    .from(requests)
    .innerJoin(budgets, eq(budgets.id, requests.budget_id))
    .where(
      and(
        eq(requests.id, sql.placeholder('id')),
        eq(requests.organization_id, sql.placeholder('organizationId')),
      ),
    )
    .prepare('request_view');
});

/**
 * One request (any version) of an organisation with its budget's name, its reviews, its chain's
 * version history, its retirement with the reviews of every round, and its owner's unretired total
 * and oldest due date, in one statement: the request view and every write's answer read it (issue
 * 13; it was seven statements, each a round trip). The related rows come as JSON, turned back into
 * the rows Drizzle answers (db/json-rows.ts), so the presenters are the same.
 */
export async function findRequestView(
  db: Executor,
  options: { organizationId: string; id: string },
): Promise<RequestView | undefined> {
  const [row] = await requestViewQuery(db).execute(options);
  if (!row) return undefined;
  const { reviewsJson, historyJson, retirementJson, unretiredTotal, oldestDueDate, ...record } =
    row;
  const retirement = retirementJson as { row: JsonRow; reviews: JsonRow[] } | null;
  return {
    record,
    reviews: reviewsJson.map((json) => rowFromJson<ReviewRow>(reviewColumns, json)),
    history: historyJson.map((json) => rowFromJson<VersionRow>(versionColumns, json)),
    retirement: retirement
      ? {
          // What the retirement's record says of its request is this request's.
          record: {
            ...rowFromJson<RetirementRow>(retirementColumns, retirement.row),
            name: record.request_owner_name,
            purpose: record.purpose,
            approval_number: record.approval_number,
            budget_code: record.budget_code,
          },
          reviews: retirement.reviews.map((json) =>
            rowFromJson<RetirementReviewRow>(retirementReviewColumns, json),
          ),
        }
      : undefined,
    ownerUnretiredTotal: Number(unretiredTotal ?? 0),
    ownerOldestDueDate: oldestDueDate,
  };
}
