import { isSuperAdmin } from '@imprest/domain/permissions.ts';
import { App, Card, Skeleton } from 'antd';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { LoadError } from '../../../components/load-error.tsx';
import { useCurrentUser } from '../../../lib/session.tsx';
import { useIsMobile } from '../../../lib/use-media-query.ts';
import { paths } from '../../../paths.ts';
import { useApprovalMatrix } from '../api/get-approval-matrix.ts';
import { ApprovalMatrixForm } from '../components/approval-matrix-form.tsx';

/** Route /dashboard/approval-object: the director's edit form of the approval matrix (spec §2). */
export function ApprovalObjectPage() {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const isMobile = useIsMobile();
  const { message } = App.useApp();
  const matrix = useApprovalMatrix();
  const location = useLocation();
  const isFromMatrix = (location.state as { fromMatrix?: boolean } | null)?.fromMatrix === true;

  // Decisions §9: only a director replaces the approval matrix.
  if (!isSuperAdmin(user.role)) {
    return <Navigate to={paths.dashboard.approvalMatrix.getHref()} replace />;
  }

  function goToMatrix() {
    // Opened with the matrix's Edit: back to that page, so the matrix's own Back then leads where
    // the director came from. A replace would leave two matrix pages in the history, and its Back
    // would seem to do nothing. Opened directly: the matrix takes this page's place.
    if (isFromMatrix) void navigate(-1);
    else void navigate(paths.dashboard.approvalMatrix.getHref(), { replace: true });
  }

  return (
    <Card size={isMobile ? 'small' : 'medium'}>
      {matrix.isPending ? <Skeleton active paragraph={{ rows: 6 }} /> : null}
      {matrix.isError ? (
        <LoadError title={matrix.error.message} onRetry={() => matrix.refetch()} />
      ) : null}
      {matrix.data ? (
        <ApprovalMatrixForm
          rows={matrix.data.data.rows}
          version={matrix.data.version}
          onCancel={goToMatrix}
          onSaved={() => {
            void message.success('Approval matrix saved');
            goToMatrix();
          }}
        />
      ) : null}
    </Card>
  );
}
