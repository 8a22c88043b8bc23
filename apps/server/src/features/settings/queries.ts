import {
  defaultExchangeRates,
  foreignCurrencies,
  type ExchangeRateChange,
  type ExchangeRates,
  type ForeignCurrency,
} from '@imprest/domain/exchange-rates.ts';
import { desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { pipelined } from '../../db/pipelined.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { exchangeRateChanges, exchangeRates } from '../../db/schema.ts';

export type ExchangeRateChangeRow = typeof exchangeRateChanges.$inferSelect;

function isForeignCurrency(currency: string): currency is ForeignCurrency {
  return (foreignCurrencies as readonly string[]).includes(currency);
}

/**
 * The rates an organisation has stored (none for a currency still on its default), read under a
 * per-organisation lock held to the end of the transaction, so two saves one after the other each
 * log what they really changed.
 */
export async function lockStoredExchangeRates(
  tx: Executor,
  organizationId: string,
): Promise<Partial<ExchangeRates>> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(727004, hashtext(${organizationId}))`);
  const rows = await tx
    .select({ currency: exchangeRates.currency, rate: exchangeRates.rate })
    .from(exchangeRates)
    .where(eq(exchangeRates.organization_id, organizationId));
  const stored: Partial<ExchangeRates> = {};
  for (const row of rows)
    if (isForeignCurrency(row.currency)) stored[row.currency] = Number(row.rate);
  return stored;
}

/** Appends one changelog row per changed rate (none for an empty list). */
export async function insertExchangeRateChanges(
  tx: Executor,
  options: {
    organizationId: string;
    actor: { id: string; fullname: string };
    changes: ExchangeRateChange[];
  },
): Promise<void> {
  if (options.changes.length === 0) return;
  await tx.insert(exchangeRateChanges).values(
    options.changes.map((change) => ({
      organization_id: options.organizationId,
      currency: change.currency,
      old_rate: change.old_rate === null ? null : change.old_rate.toFixed(6),
      new_rate: change.new_rate.toFixed(6),
      actor_id: options.actor.id,
      actor_name: options.actor.fullname,
    })),
  );
}

/** One page of an organisation's rate changes, newest first, and how many there are. */
export async function listExchangeRateChanges(
  db: Executor,
  options: { organizationId: string; page: number; perPage: number },
): Promise<{ rows: ExchangeRateChangeRow[]; total: number }> {
  const where = eq(exchangeRateChanges.organization_id, options.organizationId);
  const [rows, total] = await pipelined(db, [
    (on) =>
      on
        .select()
        .from(exchangeRateChanges)
        .where(where)
        .orderBy(desc(exchangeRateChanges.created_at), desc(exchangeRateChanges.id))
        .limit(options.perPage)
        .offset((options.page - 1) * options.perPage),
    (on) => on.$count(exchangeRateChanges, where),
  ]);
  return { rows, total };
}

/**
 * The statement of loadExchangeRates, prepared under a name (issue 13): every submission of a
 * request reads the rates, and PostgreSQL planned it afresh on each call (decision 0026).
 */
const exchangeRatesQuery = preparedOnce((db: Executor) =>
  db
    .select({ currency: exchangeRates.currency, rate: exchangeRates.rate })
    .from(exchangeRates)
    .where(eq(exchangeRates.organization_id, sql.placeholder('organizationId')))
    .prepare('exchange_rates'),
);

/** The organisation's rates to tzs, a default for each currency finance has not set (decisions §8). */
export async function loadExchangeRates(
  db: Executor,
  organizationId: string,
): Promise<ExchangeRates> {
  return exchangeRatesFrom(await exchangeRatesQuery(db).execute({ organizationId }));
}

/** The rates of an organisation's stored rows, a default for each currency they do not set. */
export function exchangeRatesFrom(rows: { currency: string; rate: string }[]): ExchangeRates {
  const rates: ExchangeRates = { ...defaultExchangeRates };
  for (const row of rows)
    if (isForeignCurrency(row.currency)) rates[row.currency] = Number(row.rate);
  return rates;
}

/** Sets every rate of an organisation in one statement. */
export async function saveExchangeRates(
  db: Executor,
  organizationId: string,
  rates: ExchangeRates,
): Promise<void> {
  await db
    .insert(exchangeRates)
    .values(
      foreignCurrencies.map((currency) => ({
        organization_id: organizationId,
        currency,
        rate: rates[currency].toFixed(6),
      })),
    )
    .onConflictDoUpdate({
      target: [exchangeRates.organization_id, exchangeRates.currency],
      set: { rate: sql`excluded.rate`, modified_at: sql`now()` },
    });
}
