import type { ExchangeRateChangeResponse } from '@imprest/domain/api/settings.ts';
import { defaultExchangeRates } from '@imprest/domain/exchange-rates.ts';
import { Alert, Card, Table, Typography, type TableColumnsType } from 'antd';
import { formatDateTime, formatRate } from '../../../lib/format.ts';
import { tablePagination } from '../../../lib/pagination.tsx';
import { currencyLabel } from '../../../lib/request-labels.ts';
import { useIsMobile } from '../../../lib/use-media-query.ts';
import { useServerPaging } from '../../../lib/use-server-paging.ts';
import { useExchangeRateChanges } from '../api/get-exchange-rate-changes.ts';

/** The rate before a change; the default while none had been saved. */
function oldRateText(change: ExchangeRateChangeResponse): string {
  return change.old_rate === null
    ? `${formatRate(defaultExchangeRates[change.currency])} (default)`
    : formatRate(change.old_rate);
}

function RateChange({ change }: { change: ExchangeRateChangeResponse }) {
  return (
    <span style={{ whiteSpace: 'nowrap' }}>
      <Typography.Text type="secondary">{oldRateText(change)}</Typography.Text>
      {' → '}
      <Typography.Text strong>{formatRate(change.new_rate)}</Typography.Text>
    </span>
  );
}

const columns: TableColumnsType<ExchangeRateChangeResponse> = [
  {
    title: 'DATE',
    key: 'changed_at',
    render: (_value, change) => (
      <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(change.changed_at)}</span>
    ),
  },
  {
    title: 'CURRENCY',
    key: 'currency',
    render: (_value, change) => currencyLabel(change.currency),
  },
  {
    title: 'RATE (TZS)',
    key: 'rate',
    render: (_value, change) => <RateChange change={change} />,
  },
  {
    title: 'CHANGED BY',
    key: 'changed_by',
    render: (_value, change) => change.changed_by.fullname,
  },
];

/** At 375 px the four columns fold into one, so nothing hides off the side. */
const mobileColumns: TableColumnsType<ExchangeRateChangeResponse> = [
  {
    title: 'CHANGE',
    key: 'change',
    render: (_value, change) => (
      <div>
        <div>
          <Typography.Text strong>{currencyLabel(change.currency)}</Typography.Text>{' '}
          <RateChange change={change} />
        </div>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {formatDateTime(change.changed_at)} · {change.changed_by.fullname}
        </Typography.Text>
      </div>
    ),
  },
];

/** Who changed which exchange rate when, newest first (docs/decisions/0013), below the rates. */
export function ExchangeRateChangesCard() {
  const isMobile = useIsMobile();
  const paging = useServerPaging();
  const changes = useExchangeRateChanges({ page: paging.page, perPage: paging.perPage });
  const isLoading = changes.isPending || changes.isPlaceholderData;

  return (
    <Card title="Rate changes" size="small" data-testid="exchange-rate-changes-card">
      {changes.isError ? (
        <Alert type="error" showIcon title={changes.error.message} style={{ marginBottom: 12 }} />
      ) : null}
      <Table<ExchangeRateChangeResponse>
        rowKey="id"
        columns={isMobile ? mobileColumns : columns}
        dataSource={changes.data?.data ?? []}
        loading={isLoading}
        size="small"
        scroll={{ x: 'max-content' }}
        // While the first page loads the spinner speaks; the empty text only once it is known.
        locale={{ emptyText: isLoading ? ' ' : 'No rate changes found!' }}
        pagination={tablePagination(changes.data?.total ?? 0, {
          current: paging.page,
          pageSize: paging.perPage,
          onChange: paging.onChange,
          size: isMobile ? 'small' : undefined,
          hideOnSinglePage: true,
        })}
        data-testid="exchange-rate-changes"
      />
    </Card>
  );
}
