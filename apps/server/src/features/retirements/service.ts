import type { RequestResponse } from '@imprest/domain/api/requests.ts';
import type { AttachRetirementRequest } from '@imprest/domain/api/retirements.ts';
import { messages } from '@imprest/domain/messages.ts';
import { todayIn } from '@imprest/domain/requests.ts';
import { retirementDueDate } from '@imprest/domain/retirements.ts';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../lib/authenticate.ts';
import { sqlState, sqlStateOf } from '../../lib/database-errors.ts';
import { AppError } from '../../lib/errors.ts';
import { lockRequest } from '../requests/queries.ts';
import { readRequest } from '../requests/service.ts';
import { canAttachRetirement } from './policy.ts';
import { findRetirementOfRequest, insertRetirement } from './queries.ts';

const alreadyRetired = 'This request already has a retirement.';

/** A second retirement for one request answers 409; the unique index decides, so racing attaches cannot both win. */
function rethrowDuplicateRetirement(error: unknown): never {
  if (sqlStateOf(error) === sqlState.uniqueViolation)
    throw new AppError('conflict', alreadyRetired);
  throw error;
}

/**
 * Finance attaches a retirement to an approved request that has none (decisions §4): status
 * pending, owned by the request's owner, due the later of the expenditure date and today (in the
 * organisation's time zone) plus 14 days. Checked and written in one transaction holding the
 * request row lock. Answers the request as `GET requests/request/{id}` does, with its retirement.
 */
export async function attachRetirement(
  context: AppContext,
  options: { actor: Actor; input: AttachRetirementRequest },
): Promise<RequestResponse> {
  const { actor, input } = options;
  const organizationId = actor.organization_id;
  if (!canAttachRetirement(actor))
    throw new AppError('forbidden', 'Only finance can request a retirement.');
  const attachDate = todayIn(context.config.orgTimezone);
  const retirement = await context.db
    .transaction(async (tx) => {
      const request = await lockRequest(tx, { organizationId, id: input.id });
      // Another organisation's request does not exist for this user (decisions §2).
      if (!request) throw new AppError('not_found', messages.requestNotFound);
      if (!request.is_latest) {
        throw new AppError(
          'conflict',
          'This version has been replaced by a newer one. Open the newest version to request its retirement.',
        );
      }
      if (request.current_status !== 'approved') {
        throw new AppError(
          'conflict',
          'Only an approved request can be retired. This request has not been approved.',
        );
      }
      if (await findRetirementOfRequest(tx, { organizationId, requestId: request.id }))
        throw new AppError('conflict', alreadyRetired);
      return insertRetirement(tx, {
        organization_id: organizationId,
        request_id: request.id,
        retirement_owner_id: request.request_owner_id,
        budget_id: request.budget_id,
        // amountReceived (decisions §4): the approved amount, in the request's currency.
        amount_received: request.amount_requested,
        status: 'pending',
        due_date: retirementDueDate(request.expenditure_date, attachDate),
        amount_currency: request.amount_currency,
        created_by: actor.id,
      });
    })
    .catch(rethrowDuplicateRetirement);

  context.events.publish(organizationId, 'retirement_updated', {
    retirement_id: retirement.id,
    request_id: retirement.request_id,
  });
  context.events.publish(organizationId, 'request_updated', { request_id: retirement.request_id });
  const request = await readRequest(context.db, { organizationId, id: retirement.request_id });
  if (!request) throw new Error(`request ${retirement.request_id} vanished after its retirement`);
  return request;
}
