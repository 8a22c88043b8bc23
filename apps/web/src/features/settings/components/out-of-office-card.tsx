import type { DelegationResponse } from '@imprest/domain/api/delegations.ts';
import { maxPageSize } from '@imprest/domain/constants.ts';
import { canDelegateForOthers } from '@imprest/domain/delegations.ts';
import { Alert, Card, Divider, Flex, Skeleton, Typography } from 'antd';
import { useRef } from 'react';
import { LoadError } from '../../../components/load-error.tsx';
import { useCurrentUser } from '../../../lib/session.tsx';
import { useEndDelegation } from '../api/end-delegation.ts';
import { useDelegations } from '../api/get-delegations.ts';
import {
  DelegationStatusTag,
  EndDelegationButton,
  delegationDaysText,
  personText,
  useFocusAfterEnd,
} from './delegations-parts.tsx';
import { OutOfOfficeForm } from './out-of-office-form.tsx';

/** The delegations that still matter (active, then scheduled), earliest first day first. */
function useLiveDelegations() {
  const active = useDelegations({ status: 'active', page: 1, perPage: maxPageSize });
  const scheduled = useDelegations({ status: 'scheduled', page: 1, perPage: maxPageSize });
  const live = [...(active.data?.data ?? []), ...(scheduled.data?.data ?? [])].sort((a, b) =>
    a.starts_on.localeCompare(b.starts_on),
  );
  return {
    live,
    isPending: active.isPending || scheduled.isPending,
    error: active.error ?? scheduled.error,
    refetch: () => Promise.all([active.refetch(), scheduled.refetch()]),
  };
}

type OwnDelegationProps = {
  delegation: DelegationResponse;
  isEnding: boolean;
  onEnd: (button: HTMLElement | null) => void;
};

/** One of the user's own delegations: the delegate, the days, the note, where it stands, End now. */
function OwnDelegation({ delegation, isEnding, onEnd }: OwnDelegationProps) {
  const user = useCurrentUser();
  const isSetByOther = delegation.created_by.id !== user.id;
  return (
    <Flex justify="space-between" align="flex-start" gap={12} wrap data-testid="own-delegation">
      <Flex vertical gap={2} style={{ minWidth: 0 }}>
        <Flex align="center" gap={8} wrap>
          <Typography.Text strong>{personText(delegation.delegate)}</Typography.Text>
          <DelegationStatusTag status={delegation.status} />
        </Flex>
        <Typography.Text>{delegationDaysText(delegation)}</Typography.Text>
        {delegation.note ? (
          <Typography.Text type="secondary" style={{ overflowWrap: 'anywhere' }}>
            {delegation.note}
          </Typography.Text>
        ) : null}
        {isSetByOther ? (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            Set by {delegation.created_by.fullname}
          </Typography.Text>
        ) : null}
      </Flex>
      <EndDelegationButton delegation={delegation} isPending={isEnding} onConfirm={onEnd} />
    </Flex>
  );
}

/**
 * Settings' Out of office card for a user who reviews requests (issue 15, docs/decisions/0019):
 * who answers their review steps while they are away, for which days, ended at will; the steps
 * they answer for someone else; and the form that names a delegate (for the director, for anyone).
 */
export function OutOfOfficeCard() {
  const user = useCurrentUser();
  const { live, isPending, error, refetch } = useLiveDelegations();
  const end = useEndDelegation();
  const own = live.filter((delegation) => delegation.delegator.id === user.id);
  const standingIn = live.filter((delegation) => delegation.delegate.id === user.id);
  const list = useRef<HTMLDivElement>(null);
  const noDelegation = useRef<HTMLSpanElement>(null);
  const handleEndConfirmed = useFocusAfterEnd(list, () => noDelegation.current);

  return (
    <Card title="Out of office" size="small" data-testid="out-of-office-card">
      <Flex vertical gap={12} ref={list}>
        <Typography.Text type="secondary">
          While you are away, a colleague who reviews requests answers your review steps on your
          behalf.
        </Typography.Text>
        {isPending ? <Skeleton active title={false} paragraph={{ rows: 2 }} /> : null}
        {error ? <LoadError title={error.message} onRetry={refetch} /> : null}
        {/* Only what was loaded may say there is no delegate: not a list that failed to load. */}
        {!isPending && !error && own.length === 0 ? (
          <Typography.Text
            ref={noDelegation}
            tabIndex={-1}
            className="focus-landing"
            data-testid="no-delegation"
          >
            No delegate is named for you.
          </Typography.Text>
        ) : null}
        {own.map((delegation) => (
          <OwnDelegation
            key={delegation.id}
            delegation={delegation}
            isEnding={end.isPending && end.variables === delegation.id}
            onEnd={(button) => {
              handleEndConfirmed(button);
              end.mutate(delegation.id);
            }}
          />
        ))}
        {end.isError ? (
          <Alert
            type="error"
            showIcon
            title="The delegation could not be ended"
            description={end.error.message}
            data-testid="end-delegation-error"
          />
        ) : null}
        {standingIn.map((delegation) => (
          <Alert
            key={delegation.id}
            type="info"
            showIcon
            title={`You answer the review steps of ${personText(delegation.delegator)} on their behalf: ${delegationDaysText(delegation)}.`}
            data-testid="standing-in"
          />
        ))}
      </Flex>
      <Divider titlePlacement="start" plain>
        Name a delegate
      </Divider>
      <OutOfOfficeForm canChooseDelegator={canDelegateForOthers(user.role)} />
    </Card>
  );
}
