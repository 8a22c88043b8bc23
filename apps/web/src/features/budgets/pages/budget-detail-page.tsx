import { DownloadOutlined, EditOutlined } from '@ant-design/icons';
import { isFinance } from '@imprest/domain/permissions.ts';
import { Alert, Button, Card, Col, Flex, Row, Typography } from 'antd';
import { useNavigate, useParams } from 'react-router';
import { currencyLabel } from '../../../lib/request-labels.ts';
import { useCurrentUser } from '../../../lib/session.tsx';
import { useIsMobile } from '../../../lib/use-media-query.ts';
import { useOneAtATime } from '../../../lib/use-one-at-a-time.ts';
import { useBudget } from '../api/get-budget.ts';
import { useDownloadBudgetRequests } from '../api/download-budget-requests.ts';
import { BudgetChangelog } from '../components/budget-changelog.tsx';
import { BudgetHistoryChart } from '../components/budget-history-chart.tsx';
import { BudgetLoadError } from '../components/budget-load-error.tsx';
import { BudgetPanels } from '../components/budget-panels.tsx';
import { BudgetRequestsTable } from '../components/budget-requests-table.tsx';
import { BudgetStatusTag } from '../components/budget-status-tag.tsx';
import { PageLoader } from '../components/page-loader.tsx';
import { budgetDepartmentLabel } from '@imprest/domain/budgets.ts';
import { editBudgetHref } from '../utils/navigation.ts';
import { ObjectHistoryCard } from '../../../components/history/object-history-card.tsx';
import { downloadFailed } from '../../../lib/api-download.ts';
import { firstClickOnly } from '../../../lib/first-click.ts';
import { isLoadLost } from '../../../lib/query-client.ts';

/**
 * Route /dashboard/budget/{code} (spec §2, Budget detail): the budget, its panels, its history and
 * changelog, its requests; finance also downloads the requests and opens the edit page.
 */
export function BudgetDetailPage() {
  const { id: code = '' } = useParams();
  const user = useCurrentUser();
  const navigate = useNavigate();
  const isMobile = useIsMobile();
  const budget = useBudget(code);
  const download = useDownloadBudgetRequests();
  const downloadRequests = useOneAtATime(download);
  const canManage = isFinance(user.role);
  const cardSize = isMobile ? 'small' : 'medium';

  if (budget.isPending) return <PageLoader label="Loading budget…" />;
  if (!budget.data || isLoadLost(budget)) {
    return <BudgetLoadError error={budget.error} onRetry={() => budget.refetch()} />;
  }
  const data = budget.data;
  const requestCount = data.requests.total;
  const shownCount = data.requests.data.length;

  return (
    <Flex vertical gap={16}>
      <Card size={cardSize}>
        <Flex gap={16} wrap justify="space-between" align="flex-start">
          <div style={{ minWidth: 0, flex: '1 1 320px' }}>
            <Flex gap={8} wrap align="center">
              <Typography.Title
                level={2}
                style={{ margin: 0, fontSize: isMobile ? 20 : 24, overflowWrap: 'anywhere' }}
                data-testid="budget-name"
              >
                {data.name}
              </Typography.Title>
              {data.current_status === 'active' ? null : (
                <span data-testid="archived-marker">
                  <BudgetStatusTag status={data.current_status} />
                </span>
              )}
            </Flex>
            <Typography.Text type="secondary">
              Code {data.code} · {budgetDepartmentLabel(data.department)} ·{' '}
              {currencyLabel(data.amount_currency)}
            </Typography.Text>
            {data.description ? (
              <Typography.Paragraph
                style={{ marginTop: 8, marginBottom: 0, whiteSpace: 'pre-line' }}
                data-testid="budget-description"
              >
                {data.description}
              </Typography.Paragraph>
            ) : null}
          </div>
          {canManage ? (
            <Flex gap={8} wrap style={isMobile ? { width: '100%' } : undefined}>
              <Button
                icon={<DownloadOutlined />}
                loading={download.isPending}
                onClick={firstClickOnly(() => downloadRequests(data.code))}
                style={isMobile ? { flex: '1 1 0' } : undefined}
              >
                Download Requests
              </Button>
              <Button
                type="primary"
                icon={<EditOutlined />}
                onClick={() => void navigate(editBudgetHref(data))}
                style={isMobile ? { flex: '1 1 0' } : undefined}
              >
                Edit Budget
              </Button>
            </Flex>
          ) : null}
        </Flex>
      </Card>
      {download.isError ? (
        <Alert
          type="error"
          showIcon
          closable={{ onClose: () => download.reset() }}
          title={downloadFailed}
          data-testid="download-error"
        />
      ) : null}
      <Alert
        type="warning"
        showIcon
        title="A budget code cannot be deleted once created. Edits may only increase the amount or change non-funding metadata."
      />
      <BudgetPanels budget={data} />
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={14}>
          <Card title="Budget over time" size={cardSize} style={{ height: '100%' }}>
            <BudgetHistoryChart history={data.history} currency={data.amount_currency} />
          </Card>
        </Col>
        <Col xs={24} lg={10}>
          <Card
            title="Changelog"
            size={cardSize}
            style={{ height: '100%' }}
            styles={{ body: { maxHeight: 420, overflowY: 'auto' } }}
          >
            <BudgetChangelog changes={data.changelog} />
          </Card>
        </Col>
      </Row>
      <Card
        title="Budget Requests"
        size={cardSize}
        extra={
          requestCount > shownCount ? (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              Newest {shownCount} of {requestCount}
            </Typography.Text>
          ) : null
        }
      >
        <BudgetRequestsTable requests={data.requests.data} />
      </Card>
      <ObjectHistoryCard object_type="budget" object_id={data.id} />
    </Flex>
  );
}
