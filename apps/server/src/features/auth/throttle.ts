import { and, count, eq, gt, lt, min, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { signInFailures } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';

export const throttleWindowMinutes = 15;

/*
 * Failed sign-ins are throttled, not locked out: the tight limit is per account *and* address, so
 * someone guessing from elsewhere cannot shut the owner out. A looser per-address limit stops one
 * machine trying many accounts, and a generous per-account limit slows guessing spread over many
 * addresses. Counts live in PostgreSQL so every server process sees the same numbers.
 */
export const throttleLimits = { accountAndAddress: 5, address: 30, account: 100 } as const;

/** Throws 429 when this account or address has failed too often in the window. */
export async function assertNotThrottled(
  db: Executor,
  email: string,
  address: string,
): Promise<void> {
  const since = sql`now() - make_interval(mins => ${throttleWindowMinutes})`;
  const [row] = await db
    .select({
      pair: sql<number>`count(*) filter (where ${signInFailures.email} = ${email} and ${signInFailures.address} = ${address})`.mapWith(
        Number,
      ),
      address: sql<number>`count(*) filter (where ${signInFailures.address} = ${address})`.mapWith(
        Number,
      ),
      account: sql<number>`count(*) filter (where ${signInFailures.email} = ${email})`.mapWith(
        Number,
      ),
      oldest: min(signInFailures.created_at),
    })
    .from(signInFailures)
    .where(
      and(
        gt(signInFailures.created_at, since),
        sql`(${signInFailures.email} = ${email} or ${signInFailures.address} = ${address})`,
      ),
    );
  if (!row) return;
  const isThrottled =
    row.pair >= throttleLimits.accountAndAddress ||
    row.address >= throttleLimits.address ||
    row.account >= throttleLimits.account;
  if (!isThrottled) return;
  const oldest = row.oldest ? new Date(row.oldest).getTime() : Date.now();
  const retryAfter = Math.max(
    1,
    Math.ceil((oldest + throttleWindowMinutes * 60_000 - Date.now()) / 1000),
  );
  const minutes = Math.ceil(retryAfter / 60);
  throw new AppError(
    'too_many_requests',
    `Too many sign-in attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`,
    { headers: { 'retry-after': String(retryAfter) } },
  );
}

/** Records one failed sign-in and forgets failures older than a day. */
export async function recordFailure(db: Executor, email: string, address: string): Promise<void> {
  await db.insert(signInFailures).values({ email, address });
  await db
    .delete(signInFailures)
    .where(lt(signInFailures.created_at, sql`now() - interval '1 day'`));
}

/** A successful sign-in clears the failures of that account from that address. */
export async function clearFailures(db: Executor, email: string, address: string): Promise<void> {
  await db
    .delete(signInFailures)
    .where(and(eq(signInFailures.email, email), eq(signInFailures.address, address)));
}

/** Number of recorded failures for an account (tests and diagnostics). */
export async function failureCount(db: Executor, email: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(signInFailures)
    .where(eq(signInFailures.email, email));
  return row?.n ?? 0;
}
