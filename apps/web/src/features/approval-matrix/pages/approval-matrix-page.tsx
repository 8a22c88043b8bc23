import { isAdmin, isSuperAdmin } from '@imprest/domain/permissions.ts';
import { Button, Card, Flex, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { LoadError } from '../../../components/load-error.tsx';
import { useCurrentUser } from '../../../lib/session.tsx';
import { useGoBack } from '../../../lib/use-go-back.ts';
import { useIsMobile } from '../../../lib/use-media-query.ts';
import { paths } from '../../../paths.ts';
import { useApprovalMatrix } from '../api/get-approval-matrix.ts';
import { ApprovalMatrixTable } from '../components/approval-matrix-table.tsx';
import { VacantPositions } from '../components/vacant-positions.tsx';

/** Route /dashboard/approval-matrix: who reviews which amounts; directors may edit (spec §2). */
export function ApprovalMatrixPage() {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const isMobile = useIsMobile();
  const matrix = useApprovalMatrix();
  const rows = matrix.data?.data.rows;

  const handleBack = useGoBack(paths.dashboard.home.getHref());

  return (
    <Card size={isMobile ? 'small' : 'medium'}>
      <Flex vertical gap={16}>
        {matrix.isError ? (
          <LoadError title={matrix.error.message} onRetry={() => matrix.refetch()} />
        ) : null}
        {isAdmin(user.role) ? <VacantPositions /> : null}
        {matrix.data?.data.is_default ? (
          <Typography.Text type="secondary">
            The organisation uses the default approval matrix.
          </Typography.Text>
        ) : null}
        <ApprovalMatrixTable
          rows={rows ?? []}
          isLoading={matrix.isPending}
          isError={matrix.isError}
        />
        <Flex gap={12} justify="flex-end" wrap>
          <Button onClick={handleBack}>Back</Button>
          {isSuperAdmin(user.role) ? (
            <Button
              type="primary"
              onClick={() =>
                void navigate(paths.dashboard.approvalObject.getHref(), {
                  state: { fromMatrix: true },
                })
              }
              disabled={!matrix.data}
            >
              Edit
            </Button>
          ) : null}
        </Flex>
      </Flex>
    </Card>
  );
}
