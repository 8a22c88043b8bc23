import type { DelegationResponse } from '@imprest/domain/api/delegations.ts';
import { delegationStatus } from '@imprest/domain/delegations.ts';
import { iso, isoRequired } from '../../lib/time.ts';
import type { DelegationRecord } from './queries.ts';

/** The API delegation object; `status` is where it stands on `today` (ORG_TIMEZONE). */
export function presentDelegation(record: DelegationRecord, today: string): DelegationResponse {
  return {
    id: record.id,
    delegator: record.delegator,
    delegate: record.delegate,
    starts_on: record.starts_on,
    ends_on: record.ends_on,
    note: record.note,
    status: delegationStatus(record, today),
    created_by: record.creator,
    created_at: isoRequired(record.created_at),
    ended_at: iso(record.ended_at),
    ended_by: record.ender,
  };
}
