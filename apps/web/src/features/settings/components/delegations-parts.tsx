import type { DelegationResponse, DelegationPerson } from '@imprest/domain/api/delegations.ts';
import type { DelegationStatus } from '@imprest/domain/delegations.ts';
import { roleLabels } from '@imprest/domain/enums.ts';
import { Button, Popconfirm, Tag } from 'antd';
import { formatDate } from '../../../lib/format.ts';

const statusColours: Record<DelegationStatus, string> = {
  scheduled: 'blue',
  active: 'green',
  ended: 'default',
};

const statusLabels: Record<DelegationStatus, string> = {
  scheduled: 'Scheduled',
  active: 'Active',
  ended: 'Ended',
};

/** Where a delegation stands today: Scheduled, Active or Ended. */
export function DelegationStatusTag({ status }: { status: DelegationStatus }) {
  return <Tag color={statusColours[status]}>{statusLabels[status]}</Tag>;
}

/** A person of a delegation with their position, e.g. `Baraka Custodian (Petty Cash Custodian)`. */
export function personText(person: Pick<DelegationPerson, 'fullname' | 'role'>): string {
  return `${person.fullname} (${roleLabels[person.role]})`;
}

/** The days a delegation covers in en-GB format (spec §9), both included: `05/03/2026 – 09/03/2026`. */
export function delegationDaysText(delegation: Pick<DelegationResponse, 'starts_on' | 'ends_on'>) {
  const first = formatDate(delegation.starts_on);
  const last = formatDate(delegation.ends_on);
  return first === last ? first : `${first} – ${last}`;
}

type EndDelegationButtonProps = {
  delegation: DelegationResponse;
  isPending: boolean;
  onConfirm: () => void;
};

/** End now, after a confirmation that says who stops answering for whom. */
export function EndDelegationButton({
  delegation,
  isPending,
  onConfirm,
}: EndDelegationButtonProps) {
  const isScheduled = delegation.status === 'scheduled';
  return (
    <Popconfirm
      title="End this delegation now?"
      description={
        isScheduled
          ? `${delegation.delegate.fullname} will not answer ${delegation.delegator.fullname}'s review steps.`
          : `${delegation.delegate.fullname} stops answering ${delegation.delegator.fullname}'s review steps at once.`
      }
      okText="End now"
      okButtonProps={{ danger: true, loading: isPending }}
      cancelText="Cancel"
      onConfirm={onConfirm}
    >
      <Button size="small" danger loading={isPending}>
        End now
      </Button>
    </Popconfirm>
  );
}
