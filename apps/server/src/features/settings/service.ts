import type { ExchangeRatesResponse } from '@imprest/domain/api/settings.ts';
import type { ExchangeRates } from '@imprest/domain/exchange-rates.ts';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../lib/authenticate.ts';
import { AppError } from '../../lib/errors.ts';
import { canReadExchangeRates, canUpdateExchangeRates } from './policy.ts';
import { presentExchangeRates } from './presenter.ts';
import { loadExchangeRates, saveExchangeRates } from './queries.ts';

/** The organisation's rates to tzs. */
export async function getExchangeRates(
  context: AppContext,
  options: { actor: Actor },
): Promise<ExchangeRatesResponse> {
  if (!canReadExchangeRates(options.actor))
    throw new AppError('forbidden', 'You may not read the exchange rates.');
  return presentExchangeRates(await loadExchangeRates(context.db, options.actor.organization_id));
}

/** Replaces the organisation's rates to tzs (finance). Requests already submitted keep their rate. */
export async function updateExchangeRates(
  context: AppContext,
  options: { actor: Actor; rates: ExchangeRates },
): Promise<ExchangeRatesResponse> {
  const { actor } = options;
  if (!canUpdateExchangeRates(actor))
    throw new AppError('forbidden', 'Only finance can change the exchange rates.');
  await saveExchangeRates(context.db, actor.organization_id, options.rates);
  return presentExchangeRates(await loadExchangeRates(context.db, actor.organization_id));
}
