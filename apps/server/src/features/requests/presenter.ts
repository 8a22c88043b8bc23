import type {
  PendingItemResponse,
  RequestItemResponse,
  RequestResponse,
  VersionHistoryEntry,
} from '@imprest/domain/api/requests.ts';
import type {
  Currency,
  PaymentMethod,
  RequestCategory,
  RequestStatus,
  TaxMode,
} from '@imprest/domain/enums.ts';
import { toAmount } from '@imprest/domain/money.ts';
import { requestFile } from '@imprest/domain/requests.ts';
import { isoRequired } from '../../lib/time.ts';
import { presentRetirement } from '../retirements/presenter.ts';
import { presentReview } from '../reviews/presenter.ts';
import type { RequestRecord, RequestRow } from './queries.ts';
import type { RequestView } from './view.ts';

/** A request as lists present it. */
export function presentRequestItem(row: RequestRecord): RequestItemResponse {
  return {
    id: row.id,
    chain_id: row.chain_id,
    version: row.version,
    parent_request: row.parent_request,
    is_latest: row.is_latest,
    request_owner_id: row.request_owner_id,
    request_owner_name: row.request_owner_name,
    department: row.department,
    purpose: row.purpose as RequestCategory,
    mode_of_service: row.mode_of_service,
    name_of_establishment: row.name_of_establishment,
    expenditure_date: row.expenditure_date,
    expenditure_justification: row.expenditure_justification,
    amount_requested: toAmount(row.amount_requested),
    amount_currency: row.amount_currency as Currency,
    exchange_rate: toAmount(row.exchange_rate),
    amount_base: toAmount(row.amount_base),
    budget_code: row.budget_code,
    budget: { code: row.budget_code, name: row.budget_name },
    payment_mode: row.payment_mode as PaymentMethod,
    tax_status: row.tax_status as TaxMode,
    comments: row.comments,
    current_status: row.current_status as RequestStatus,
    approval_number: row.approval_number,
    file_paths: row.file_paths,
    files: row.file_paths.map(requestFile),
    created_at: isoRequired(row.created_at),
    modified_at: isoRequired(row.modified_at),
  };
}

/** A request of a pending list, marked with the delegator whose step it is (issue 15), or null. */
export function presentPendingItem(
  row: RequestRecord,
  delegatedFrom: { id: string; name: string } | null,
): PendingItemResponse {
  return { ...presentRequestItem(row), delegated_from: delegatedFrom };
}

/** One entry of a request's version history. */
export function presentVersion(
  row: Pick<RequestRow, 'id' | 'version' | 'created_at' | 'current_status'>,
): VersionHistoryEntry {
  return {
    id: row.id,
    version: row.version,
    created_at: isoRequired(row.created_at),
    current_status: row.current_status as RequestStatus,
  };
}

/**
 * One request with its reviews, version history, retirement (with the reviews of every round) and
 * what the owner still has to retire.
 */
export function presentRequest(view: RequestView): RequestResponse {
  return {
    ...presentRequestItem(view.record),
    reviews: view.reviews.map(presentReview),
    version_history: view.history.map(presentVersion),
    current_retirement: view.retirement
      ? presentRetirement(view.retirement.record, view.retirement.reviews)
      : null,
    owner_unretired_total: view.ownerUnretiredTotal,
    owner_oldest_due_date: view.ownerOldestDueDate,
  };
}
