import { PrinterOutlined } from '@ant-design/icons';
import type { RequestResponse } from '@imprest/domain/api/requests.ts';
import type { RetirementResponse } from '@imprest/domain/api/retirements.ts';
import { roleLabels, retirementStatusLabels } from '@imprest/domain/enums.ts';
import { hasAnsweredAnotherStep } from '@imprest/domain/requests.ts';
import {
  currentRetirementRound,
  currentRetirementStep,
  retirementFormMode,
} from '@imprest/domain/retirements.ts';
import type { UserResponse } from '@imprest/domain/api/users.ts';
import { Alert, Button, Card, Flex, Result, Skeleton, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { RequestLoadError } from '../../../components/request-load-error.tsx';
import { SuccessPanel } from '../../../components/success-panel.tsx';
import { purposeLabels } from '../../../lib/request-labels.ts';
import { useCurrentUser } from '../../../lib/session.tsx';
import { useGoBack } from '../../../lib/use-go-back.ts';
import { useIsMobile } from '../../../lib/use-media-query.ts';
import { paths } from '../../../paths.ts';
import { useRetirementRequest } from '../api/get-retirement-request.ts';
import { ResubmitRetirementButton } from '../components/resubmit-retirement-button.tsx';
import { RetirementDetails } from '../components/retirement-details.tsx';
import { RetirementEditForm } from '../components/retirement-edit-form.tsx';
import { RetirementReviewPanel } from '../components/retirement-review-panel.tsx';
import { reviewerWithTitle } from '../../../components/reviewer-card.tsx';
import { RetirementReviews } from '../components/retirement-reviews.tsx';
import { RetirementStatusTag } from '../components/retirement-status-tag.tsx';
import { RetirementWarningBanner } from '../components/retirement-warning-banner.tsx';
import { isLoadLost } from '../../../lib/query-client.ts';
import '../../../components/print-record.css';
import { WrittenText } from '../../../components/written-text.tsx';

type Outcome = 'submitted' | 'reviewed' | null;

/** Spec §2 success panels of the retirement form. */
const successPanels = {
  submitted: {
    title: 'Retirement Request successful!',
    subTitle:
      'Your retirement request has been successfully submitted. We will notify you as your request moves along the approval process.',
  },
  reviewed: {
    title: 'Retirement Review successful!',
    subTitle: 'Your review to the retirement request has been successfully submitted.',
  },
} as const;

/** Route /dashboard/retirements/{requestId}: the retirement form of a request (spec §2). */
export function RetirementFormPage() {
  const { id = '' } = useParams();
  // A new id starts afresh: no success panel.
  return <RetirementFormView key={id} requestId={id} />;
}

function RetirementFormView({ requestId }: { requestId: string }) {
  const navigate = useNavigate();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const query = useRetirementRequest(requestId);
  const handleBack = useGoBack(paths.dashboard.retirements.getHref());
  const request = query.data;

  if (query.isPending) {
    return (
      <Card data-testid="retirement-loading">
        <Skeleton active paragraph={{ rows: 8 }} />
      </Card>
    );
  }

  // A refresh that failed keeps the form, and what was typed in it, on the retirement loaded.
  if (!request || isLoadLost(query)) {
    return (
      <RequestLoadError
        error={query.error}
        failedTitle="The retirement could not be loaded."
        onBack={handleBack}
        onRetry={() => query.refetch()}
      />
    );
  }

  if (outcome) {
    return (
      <SuccessPanel
        title={successPanels[outcome].title}
        subTitle={successPanels[outcome].subTitle}
        secondary={{ label: 'Back to the retirement', onClick: () => setOutcome(null) }}
      />
    );
  }

  const retirement = request.current_retirement;
  if (!retirement) {
    return (
      <Card>
        <Result
          status="info"
          title="This request has no retirement yet."
          subTitle="Finance starts the retirement once the request is approved."
          extra={
            <Button
              type="primary"
              onClick={() => void navigate(paths.dashboard.request.getHref(request.id))}
            >
              View Request
            </Button>
          }
        />
      </Card>
    );
  }

  return (
    <RetirementContent
      request={request}
      retirement={retirement}
      onBack={handleBack}
      onOutcome={setOutcome}
    />
  );
}

/**
 * The review step of an on_progress retirement that waits for this user's role (spec §2, §4): the
 * first pending step of the latest submission. `isAnswerable` is false when the user answered
 * another step of that submission already, in an earlier position (one person, one step;
 * docs/decisions/0019); the server refuses that answer too. The owner never reviews (admin mode
 * excludes them).
 */
function stepOfUser(retirement: RetirementResponse, user: UserResponse) {
  if (retirement.status !== 'on_progress') return undefined;
  const pending = currentRetirementStep(retirement.reviews);
  if (pending?.reviewer_role !== user.role) return undefined;
  const round = currentRetirementRound(retirement.reviews);
  return { step: pending, isAnswerable: !hasAnsweredAnotherStep(round, user.id, pending.id) };
}

type RetirementContentProps = {
  request: RequestResponse;
  retirement: RetirementResponse;
  onBack: () => void;
  onOutcome: (outcome: Outcome) => void;
};

function RetirementContent({ request, retirement, onBack, onOutcome }: RetirementContentProps) {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const isMobile = useIsMobile();
  const isOwner = retirement.retirement_owner_id === user.id;
  const mode = retirementFormMode({ role: user.role, isOwner, status: retirement.status });
  const userStep = mode === 'admin' ? stepOfUser(retirement, user) : undefined;
  const pendingReview = userStep?.isAnswerable ? userStep.step : undefined;
  const canResubmit = isOwner && retirement.status === 'rejected';
  // Who rejected it, for the owner's notice at the top: their next step, without scrolling to the
  // end of the retirement on a phone.
  const rejectedBy = canResubmit
    ? currentRetirementRound(retirement.reviews).find((review) => review.status === 'rejected')
    : undefined;

  return (
    <Flex vertical gap={16} className="print-record" data-testid="retirement-view" data-mode={mode}>
      {/* First on the page: what the owner has to do next (spec §2 'Request to Resubmit'). */}
      {canResubmit ? (
        <Alert
          type="warning"
          showIcon
          className="no-print"
          title={`${rejectedBy ? reviewerWithTitle(rejectedBy) : 'A reviewer'} rejected this retirement. Ask to resubmit it, then change it and submit it again.`}
          description={
            <Flex vertical gap={8}>
              {rejectedBy?.comments ? <WrittenText>“{rejectedBy.comments}”</WrittenText> : null}
              <ResubmitRetirementButton retirementId={retirement.id} />
            </Flex>
          }
          data-testid="retirement-rejected"
        />
      ) : null}
      <Card size={isMobile ? 'small' : 'medium'}>
        <Flex justify="space-between" align="flex-start" gap={12} wrap>
          <Flex vertical gap={4} style={{ minWidth: 0 }}>
            <Flex align="center" gap={8} wrap>
              <Typography.Title level={2} style={{ margin: 0, fontSize: isMobile ? 20 : 24 }}>
                Retirement Form
              </Typography.Title>
              <Tag color="blue">{purposeLabels[request.purpose]}</Tag>
              <RetirementStatusTag status={retirement.status} />
            </Flex>
            <Typography.Text data-testid="retirement-status">
              Status: {retirementStatusLabels[retirement.status]}
            </Typography.Text>
            <Typography.Text type="secondary">
              {retirement.name}
              {request.approval_number ? ` · ${request.approval_number}` : ''}
            </Typography.Text>
          </Flex>
          <Flex gap={8} wrap>
            <Button onClick={() => void navigate(paths.dashboard.request.getHref(request.id))}>
              View Request
            </Button>
            {/* The retirement for the paper file, as the request view's Print (spec §2). */}
            <Button icon={<PrinterOutlined />} onClick={() => window.print()}>
              Print
            </Button>
            <Button onClick={onBack}>Back</Button>
          </Flex>
        </Flex>
      </Card>

      <RetirementWarningBanner retirement={retirement} />

      {mode === 'edit' ? (
        <Card size={isMobile ? 'small' : 'medium'}>
          <RetirementEditForm
            request={request}
            retirement={retirement}
            onSubmitted={() => onOutcome('submitted')}
          />
        </Card>
      ) : (
        <Card size={isMobile ? 'small' : 'medium'} title="Retirement details">
          <RetirementDetails request={request} retirement={retirement} />
        </Card>
      )}

      <RetirementReviews reviews={retirement.reviews} />

      {userStep && !userStep.isAnswerable ? (
        <Alert
          type="info"
          showIcon
          title={`You have already answered another step of this retirement, so you cannot answer this one. Another ${roleLabels[user.role]} must answer it.`}
          className="no-print"
          data-testid="another-step-notice"
        />
      ) : null}

      {pendingReview ? (
        <div className="no-print">
          <RetirementReviewPanel
            retirement={retirement}
            reviewId={pendingReview.id}
            onReviewed={() => onOutcome('reviewed')}
          />
        </div>
      ) : null}
    </Flex>
  );
}
