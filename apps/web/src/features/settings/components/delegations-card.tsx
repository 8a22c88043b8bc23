import {
  delegationFilters,
  type DelegationFilter,
  type DelegationPerson,
  type DelegationResponse,
} from '@imprest/domain/api/delegations.ts';
import { roleLabels } from '@imprest/domain/enums.ts';
import { Alert, Card, Flex, Segmented, Table, Typography, type TableColumnsType } from 'antd';
import { useRef, useState } from 'react';
import { humanize } from '@imprest/domain/enums.ts';
import { tablePagination } from '../../../lib/pagination.tsx';
import { useIsMobile } from '../../../lib/use-media-query.ts';
import { useLastPageInRange, useServerPaging } from '../../../lib/use-server-paging.ts';
import { useEndDelegation } from '../api/end-delegation.ts';
import { useDelegations } from '../api/get-delegations.ts';
import {
  DelegationStatusTag,
  EndDelegationButton,
  delegationDaysText,
  useFocusAfterEnd,
} from './delegations-parts.tsx';

function Person({ person }: { person: DelegationPerson }) {
  return (
    <Flex vertical>
      <Typography.Text>{person.fullname}</Typography.Text>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {roleLabels[person.role]}
      </Typography.Text>
    </Flex>
  );
}

type EndAction = {
  endingId: string | undefined;
  onEnd: (delegation: DelegationResponse, button: HTMLElement | null) => void;
};

/** End now for a delegation still to come or running; nothing once it has ended. */
function endButton({ endingId, onEnd }: EndAction, delegation: DelegationResponse) {
  return delegation.status === 'ended' ? null : (
    <EndDelegationButton
      delegation={delegation}
      isPending={endingId === delegation.id}
      onConfirm={(button) => onEnd(delegation, button)}
    />
  );
}

function desktopColumns(action: EndAction): TableColumnsType<DelegationResponse> {
  return [
    {
      title: 'DELEGATOR',
      key: 'delegator',
      render: (_value, delegation) => <Person person={delegation.delegator} />,
    },
    {
      title: 'DELEGATE',
      key: 'delegate',
      render: (_value, delegation) => <Person person={delegation.delegate} />,
    },
    {
      title: 'DAYS',
      key: 'days',
      render: (_value, delegation) => (
        <span style={{ whiteSpace: 'nowrap' }}>{delegationDaysText(delegation)}</span>
      ),
    },
    {
      title: 'STATUS',
      key: 'status',
      render: (_value, delegation) => <DelegationStatusTag status={delegation.status} />,
    },
    {
      title: 'NOTE',
      key: 'note',
      responsive: ['lg'],
      render: (_value, delegation) => (
        <Typography.Text style={{ overflowWrap: 'anywhere' }}>
          {delegation.note ?? ''}
        </Typography.Text>
      ),
    },
    {
      title: <span className="sr-only">Action</span>,
      key: 'action',
      align: 'right',
      render: (_value, delegation) => endButton(action, delegation),
    },
  ];
}

/** At 375 px the columns and the action fold into one, so nothing hides off the side. */
function mobileColumns(action: EndAction): TableColumnsType<DelegationResponse> {
  return [
    {
      title: 'DELEGATION',
      key: 'delegation',
      render: (_value, delegation) => (
        <Flex vertical gap={2}>
          <Typography.Text strong>
            {delegation.delegate.fullname} for {delegation.delegator.fullname}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {delegationDaysText(delegation)}
          </Typography.Text>
          <Flex align="center" gap={8}>
            <DelegationStatusTag status={delegation.status} />
            {endButton(action, delegation)}
          </Flex>
        </Flex>
      ),
    },
  ];
}

/**
 * The director's view of every delegation of the organisation (issue 15), latest first day first,
 * filtered by where each stands, with End now on those still to come or running.
 */
export function DelegationsCard() {
  const isMobile = useIsMobile();
  const [status, setStatus] = useState<DelegationFilter>('all');
  const paging = useServerPaging();
  const delegations = useDelegations({ status, page: paging.page, perPage: paging.perPage });
  const end = useEndDelegation();
  const card = useRef<HTMLDivElement>(null);
  // The last End now gone, the focus goes to the Status filter at the card's top.
  const handleEndConfirmed = useFocusAfterEnd(card, () =>
    card.current?.querySelector<HTMLElement>('[role="radiogroup"]'),
  );
  const isLoading = delegations.isPending || delegations.isPlaceholderData;
  // Ending a delegation can empty the page on screen.
  useLastPageInRange(paging, delegations.isPlaceholderData ? undefined : delegations.data?.total);
  const action: EndAction = {
    endingId: end.isPending ? end.variables : undefined,
    onEnd: (delegation, button) => {
      handleEndConfirmed(button);
      end.mutate(delegation.id);
    },
  };

  function handleStatusChange(next: DelegationFilter) {
    setStatus(next);
    paging.restart();
  }

  return (
    <Card title="All delegations" size="small" data-testid="delegations-card" ref={card}>
      <Flex vertical gap={12}>
        <Segmented<DelegationFilter>
          aria-label="Status"
          value={status}
          onChange={handleStatusChange}
          options={delegationFilters.map((filter) => ({ value: filter, label: humanize(filter) }))}
        />
        {delegations.isError ? (
          <Alert type="error" showIcon title={delegations.error.message} />
        ) : null}
        {end.isError ? (
          <Alert
            type="error"
            showIcon
            title="The delegation could not be ended"
            description={end.error.message}
          />
        ) : null}
        <Table<DelegationResponse>
          rowKey="id"
          columns={isMobile ? mobileColumns(action) : desktopColumns(action)}
          dataSource={delegations.data?.data ?? []}
          loading={isLoading}
          size="small"
          scroll={{ x: 'max-content' }}
          // While the first page loads the spinner speaks; the empty text only once it is known.
          locale={{ emptyText: isLoading ? ' ' : 'No delegations found!' }}
          pagination={tablePagination(delegations.data?.total ?? 0, {
            current: paging.page,
            pageSize: paging.perPage,
            onChange: paging.onChange,
            size: isMobile ? 'small' : undefined,
            hideOnSinglePage: true,
          })}
          data-testid="delegations-table"
        />
      </Flex>
    </Card>
  );
}
