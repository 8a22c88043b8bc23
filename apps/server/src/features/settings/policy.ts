import type { Role } from '@imprest/domain/enums.ts';
import { isAdmin, isFinance } from '@imprest/domain/permissions.ts';

type PolicyActor = { role: Role };

/** Every user may read the exchange rates (a request form converts with them). */
export function canReadExchangeRates(_actor: PolicyActor): boolean {
  return true;
}

/** Finance keeps the exchange rates (decisions §9). */
export function canUpdateExchangeRates(actor: PolicyActor): boolean {
  return isFinance(actor.role);
}

/**
 * Who changed which rate when: finance, who keep the rates and see their card in Settings
 * (decisions §9 "exchange rates: finance"); admin permission alone is not enough.
 */
export function canReadExchangeRateChanges(actor: PolicyActor): boolean {
  return isFinance(actor.role);
}

/**
 * How the server delivers e-mail (and, without SMTP, the folder it writes them to): the admins
 * who add users, whose invitations go by e-mail (decisions §9 "create users: admin").
 */
export function canReadMailDelivery(actor: PolicyActor): boolean {
  return isAdmin(actor.role);
}
