import type {
  ExchangeRateChangesQuery,
  ExchangeRateChangesResponse,
  ExchangeRatesResponse,
  MailDeliveryResponse,
} from '@imprest/domain/api/settings.ts';
import {
  defaultExchangeRates,
  exchangeRateChanges,
  type ExchangeRates,
} from '@imprest/domain/exchange-rates.ts';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../lib/authenticate.ts';
import { recordAudit } from '../audit/record.ts';
import { entityTag, assertIfMatch } from '../../lib/entity-tag.ts';
import { AppError } from '../../lib/errors.ts';
import { mailFolder } from '../../lib/mailer.ts';
import {
  canReadExchangeRateChanges,
  canReadMailDelivery,
  canReadExchangeRates,
  canUpdateExchangeRates,
} from './policy.ts';
import { presentExchangeRateChange, presentExchangeRates } from './presenter.ts';
import {
  insertExchangeRateChanges,
  listExchangeRateChanges,
  loadExchangeRates,
  lockStoredExchangeRates,
  saveExchangeRates,
} from './queries.ts';

/** The organisation's rates to tzs. */
export async function getExchangeRates(
  context: AppContext,
  options: { actor: Actor },
): Promise<ExchangeRatesResponse> {
  if (!canReadExchangeRates(options.actor))
    throw new AppError('forbidden', 'You may not read the exchange rates.');
  return presentExchangeRates(await loadExchangeRates(context.db, options.actor.organization_id));
}

/**
 * Replaces the organisation's rates to tzs (finance). Requests already submitted keep their rate.
 * One transaction saves the rates and logs each one that changed, with who changed it
 * (docs/decisions/0013); a change is then published to the organisation (decision 0034). With
 * `ifMatch` (the `If-Match` header), rates saved meanwhile by someone else refuse it (412, 0035).
 */
export async function updateExchangeRates(
  context: AppContext,
  options: {
    actor: Actor;
    /** Tzs per unit, each within [minExchangeRate, maxExchangeRate] (checked by the schema). */
    rates: ExchangeRates;
    ifMatch?: string | undefined;
  },
): Promise<ExchangeRatesResponse> {
  const { actor } = options;
  if (!canUpdateExchangeRates(actor))
    throw new AppError('forbidden', 'Only finance can change the exchange rates.');
  const organizationId = actor.organization_id;
  const { rates, isChanged } = await context.db.transaction(async (tx) => {
    const stored = await lockStoredExchangeRates(tx, organizationId);
    assertIfMatch(
      options.ifMatch,
      entityTag(presentExchangeRates({ ...defaultExchangeRates, ...stored })),
      'The exchange rates were changed by someone else after you opened them. Check them and save again.',
    );
    const changes = exchangeRateChanges(stored, options.rates);
    await saveExchangeRates(tx, organizationId, options.rates);
    await insertExchangeRateChanges(tx, { organizationId, actor, changes });
    if (changes.length > 0) {
      await recordAudit(tx, {
        organizationId,
        actor,
        action: 'exchange_rates.updated',
        objectType: 'exchange_rates',
        objectId: null,
        changes: Object.fromEntries(
          changes.map((change) => [
            change.currency,
            { from: change.old_rate, to: change.new_rate },
          ]),
        ),
      });
    }
    return { rates: await loadExchangeRates(tx, organizationId), isChanged: changes.length > 0 };
  });
  // Open forms of the rates follow (docs/decisions/0034): a save there sends every rate.
  if (isChanged) context.events.publish(organizationId, 'exchange_rates_updated', {});
  return presentExchangeRates(rates);
}

/** Who changed which exchange rate when, newest first (finance). */
export async function listExchangeRateChangelog(
  context: AppContext,
  options: {
    actor: Actor;
    /** Page from 1 and page size (10 by default, at most 100). */
    query: ExchangeRateChangesQuery;
  },
): Promise<ExchangeRateChangesResponse> {
  const { actor, query } = options;
  if (!canReadExchangeRateChanges(actor))
    throw new AppError('forbidden', 'Only finance can see who changed the exchange rates.');
  const { rows, total } = await listExchangeRateChanges(context.db, {
    organizationId: actor.organization_id,
    page: query.page,
    perPage: query.per_page,
  });
  return {
    data: rows.map(presentExchangeRateChange),
    total,
    page: query.page,
    per_page: query.per_page,
  };
}

/** How the server delivers e-mail: through SMTP, or written to its mail folder (admins). */
export function getMailDelivery(
  context: AppContext,
  options: { actor: Actor },
): MailDeliveryResponse {
  if (!canReadMailDelivery(options.actor))
    throw new AppError('forbidden', 'Only an admin can see how e-mails are delivered.');
  return context.config.smtpUrl
    ? { delivery: 'smtp' }
    : { delivery: 'folder', folder: mailFolder(context.config.dataDir) };
}
