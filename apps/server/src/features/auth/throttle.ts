import { and, count, eq, gt, lt, min, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { signInFailures } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { waitText } from '../../lib/rate-limit.ts';

export const throttleWindowMinutes = 15;

/*
 * Failed sign-ins slow guessing down without ever locking the owner out (docs/decisions/0012,
 * replacing 0003's per-account limit, which anyone could use to shut a person out):
 * - per account *and* address, a growing delay: after `freeAttempts` failures each further try
 *   must wait twice as long as the last (1 s, 2 s, 4 s … at most the window), so a guesser at one
 *   address gets a few dozen tries an hour while the owner, elsewhere, is never delayed;
 * - per address, a hard limit over any accounts, which stops one machine spraying many accounts.
 * There is no per-account refusal: with TRUST_PROXY unset an address cannot be forged, so a
 * distributed guess costs an address per handful of tries. Counts live in PostgreSQL, shared by
 * every server process.
 */
export const throttleLimits = { freeAttempts: 3, address: 30 } as const;

/** Seconds the pair must wait after its last failure, given its failures in the window. */
export function pairDelaySeconds(failures: number): number {
  if (failures < throttleLimits.freeAttempts) return 0;
  return Math.min(2 ** (failures - throttleLimits.freeAttempts), throttleWindowMinutes * 60);
}

/**
 * Takes one try of this account's password at this address, or throws 429 while the account must
 * wait there or the address has failed too often. The try is recorded as a failure *before* the
 * password is checked and judged by the tries recorded besides it: tries sent at once (to one
 * process or several) each see the others, where a count before the check and a record after it
 * let a whole burst through unchecked (an audit proved 30 of 30). A refused try is withdrawn; a
 * wrong password leaves it as the failure (`keepFailure` forgets old ones) and a right one clears it
 * with the pair's others (`clearFailures`).
 */
export async function takeTry(db: Executor, email: string, address: string): Promise<void> {
  const [taken] = await db
    .insert(signInFailures)
    .values({ email, address })
    .returning({ id: signInFailures.id });
  if (!taken) throw new Error('sign_in_failures insert returned no row');
  const since = sql`now() - make_interval(mins => ${throttleWindowMinutes})`;
  const isPair = sql`${signInFailures.email} = ${email}`;
  const [row] = await db
    .select({
      pair: sql<number>`count(*) filter (where ${isPair})`.mapWith(Number),
      lastPair: sql<string | null>`max(${signInFailures.created_at}) filter (where ${isPair})`,
      address: count(),
      oldest: min(signInFailures.created_at),
      now: sql<string>`now()`,
    })
    .from(signInFailures)
    .where(
      and(
        eq(signInFailures.address, address),
        gt(signInFailures.created_at, since),
        ne(signInFailures.id, taken.id),
      ),
    );
  if (!row) return;
  const now = new Date(row.now).getTime();
  let retryAfter = 0;
  if (row.address >= throttleLimits.address) {
    const oldest = row.oldest ? new Date(row.oldest).getTime() : now;
    retryAfter = Math.ceil((oldest + throttleWindowMinutes * 60_000 - now) / 1000);
  }
  if (row.lastPair) {
    const waitUntil = new Date(row.lastPair).getTime() + pairDelaySeconds(row.pair) * 1000;
    retryAfter = Math.max(retryAfter, Math.ceil((waitUntil - now) / 1000));
  }
  if (retryAfter <= 0) return;
  await db.delete(signInFailures).where(eq(signInFailures.id, taken.id));
  throw new AppError(
    'too_many_requests',
    `Too many sign-in attempts. Please wait ${waitText(retryAfter)} and try again.`,
    { headers: { 'retry-after': String(retryAfter) } },
  );
}

/** A wrong password: its try (`takeTry`) stays as the failure; failures older than a day go. */
export async function keepFailure(db: Executor): Promise<void> {
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
