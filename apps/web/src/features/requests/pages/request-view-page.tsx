import { PrinterOutlined } from '@ant-design/icons';
import type { RequestResponse } from '@imprest/domain/api/requests.ts';
import { isAdmin, isFinance } from '@imprest/domain/permissions.ts';
import { canBeDelegate, delegatorFor } from '@imprest/domain/delegations.ts';
import { roleLabels } from '@imprest/domain/enums.ts';
import {
  canReview,
  firstPendingReview,
  hasAnsweredAnotherStep,
  isAwaitingReview,
} from '@imprest/domain/requests.ts';
import { Alert, Button, Card, Col, Flex, Result, Row, Skeleton, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { FocusedTitle } from '../../../components/focused-title.tsx';
import { RequestLoadError } from '../../../components/request-load-error.tsx';
import { StatusTag } from '../../../components/status-tag.tsx';
import { SuccessPanel } from '../../../components/success-panel.tsx';
import { purposeLabels } from '../../../lib/request-labels.ts';
import { useCurrentUser, useSession } from '../../../lib/session.tsx';
import { useGoBack } from '../../../lib/use-go-back.ts';
import { useIsMobile } from '../../../lib/use-media-query.ts';
import { paths } from '../../../paths.ts';
import { actingGrants, useActiveDelegations } from '../api/get-active-delegations.ts';
import { useRequest } from '../api/get-request.ts';
import { ApprovalProgress } from '../components/approval-progress.tsx';
import { RequestDetails } from '../components/request-details.tsx';
import { RequestRetirementButton } from '../components/request-retirement-button.tsx';
import { RetirementLinkButton } from '../components/retirement-link-button.tsx';
import { ReviewPanel } from '../components/review-panel.tsx';
import { ReviewerCard, reviewerWithTitle } from '../../../components/reviewer-card.tsx';
import { VersionSelector } from '../components/version-selector.tsx';
import '../../../components/print-record.css';
import '../components/request-view.css';
import { ObjectHistoryCard } from '../../../components/history/object-history-card.tsx';
import { isLoadLost } from '../../../lib/query-client.ts';
import { WrittenText } from '../../../components/written-text.tsx';

type Outcome = 'reviewed' | 'retirement-requested' | null;

/** Routes /dashboard/requests/{id} and /dashboard/view-request/{id}: one request (spec §2). */
export function RequestViewPage() {
  const { id = '' } = useParams();
  // A new id starts afresh: no version chosen, no success panel.
  return <RequestView key={id} id={id} />;
}

function RequestView({ id }: { id: string }) {
  const navigate = useNavigate();
  const viewer = useCurrentUser();
  const { setMode } = useSession();
  const isMobile = useIsMobile();
  const [versionId, setVersionId] = useState(id);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const query = useRequest(versionId);
  const request = query.data;

  const handleBack = useGoBack(paths.dashboard.requests.getHref());

  if (query.isPending) {
    return (
      <Card>
        <Skeleton active paragraph={{ rows: 8 }} />
      </Card>
    );
  }

  if (!request || isLoadLost(query)) {
    return (
      <RequestLoadError
        error={query.error}
        failedTitle="The request could not be loaded."
        onBack={handleBack}
        onRetry={() => query.refetch()}
      />
    );
  }

  if (outcome === 'reviewed') {
    return (
      <SuccessPanel
        title="Review Successful"
        subTitle={`Your review of ${request.request_owner_name}'s request has been recorded.`}
        secondary={{ label: 'Back to the request', onClick: () => setOutcome(null) }}
      />
    );
  }

  if (outcome === 'retirement-requested') {
    return (
      <Card>
        <Result
          status="success"
          title={<FocusedTitle>Successful Retirement Request</FocusedTitle>}
          subTitle={`${request.request_owner_name} can now submit the retirement of this request.`}
          extra={
            <Button
              type="primary"
              onClick={() => {
                // The retirement just started is the owner's: in Staff mode finance's list holds
                // only finance's own, and showed "No retirements found!".
                if (request.request_owner_id !== viewer.id && isAdmin(viewer.role))
                  setMode('admin');
                void navigate(paths.dashboard.retirements.getHref(), { replace: true });
              }}
            >
              View retirements
            </Button>
          }
        />
      </Card>
    );
  }

  return (
    <RequestContent
      request={request}
      isMobile={isMobile}
      isRefreshing={query.isFetching && query.isPlaceholderData}
      versionId={versionId}
      onVersionChange={setVersionId}
      onBack={handleBack}
      onOutcome={setOutcome}
    />
  );
}

type RequestContentProps = {
  request: RequestResponse;
  isMobile: boolean;
  isRefreshing: boolean;
  versionId: string;
  onVersionChange: (id: string) => void;
  onBack: () => void;
  onOutcome: (outcome: Outcome) => void;
};

function RequestContent({
  request,
  isMobile,
  isRefreshing,
  versionId,
  onVersionChange,
  onBack,
  onOutcome,
}: RequestContentProps) {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const isOwner = request.request_owner_id === user.id;
  // Spec §4 view modes: history (an older version); admin needs no flag of its own here, since
  // the review controls follow canReview (the step's role, never the owner).
  const isHistory = !request.is_latest;
  const pendingReview = firstPendingReview(request.reviews);
  const isOwnStep =
    !isHistory &&
    Boolean(pendingReview) &&
    canReview({ actor: user, request, reviews: request.reviews });
  // Issue 15: a delegate answers their delegator's step on their behalf, never their own request
  // nor their delegator's, and never a second step of one request (docs/decisions/0019).
  const delegableStep =
    !isHistory && !isOwnStep && isAwaitingReview(request.current_status) && canBeDelegate(user.role)
      ? pendingReview
      : undefined;
  const delegations = useActiveDelegations({ isEnabled: Boolean(delegableStep) });
  const onBehalfOf =
    delegableStep && !hasAnsweredAnotherStep(request.reviews, user.id, delegableStep.id)
      ? delegatorFor({
          actor: user,
          stepRole: delegableStep.reviewer_role,
          ownerId: request.request_owner_id,
          ...actingGrants(delegations.data, user.id),
        })
      : null;
  const isReviewer = isOwnStep || Boolean(onBehalfOf);
  // The step is the user's own role, but they answered an earlier one (as a delegate): someone
  // else must answer it (one person, one step; docs/decisions/0019), so say so instead of a panel.
  const answeredStepRole =
    delegableStep &&
    !isOwner &&
    delegableStep.reviewer_role === user.role &&
    hasAnsweredAnotherStep(request.reviews, user.id, delegableStep.id)
      ? user.role
      : null;
  const canEdit =
    isOwner && !isHistory && !user.is_locked && request.current_status === 'request_edit';
  const canRequestRetirement =
    isFinance(user.role) &&
    !isHistory &&
    request.current_status === 'approved' &&
    !request.current_retirement;
  const hasRetirement = !isHistory && Boolean(request.current_retirement);
  const pastReviews = [...request.reviews]
    .filter((review) => review.status !== 'pending')
    .sort((a, b) => a.step - b.step);
  // Who returned it, for the owner's notice at the top: their next step, without scrolling to the
  // Edit button under the request on a phone.
  const returnedBy = canEdit
    ? pastReviews.find((review) => review.status === 'request_edit')
    : undefined;

  function handleEdit() {
    void navigate(paths.dashboard.newRequest.getHref(), {
      state: { request, isEdit: true, isAdmin: false },
    });
  }

  return (
    <Flex vertical gap={16} className="request-view print-record" data-testid="request-view">
      {/* First on the page: what the owner has to do next. */}
      {canEdit ? (
        <Alert
          type="warning"
          showIcon
          className="no-print"
          title={`${returnedBy ? reviewerWithTitle(returnedBy) : 'A reviewer'} returned this request for edits. Change it and submit it again.`}
          // The button under the words, not beside them: beside, it squeezed them into a narrow
          // column on a phone.
          description={
            <Flex vertical align="flex-start" gap={8}>
              {returnedBy?.comments ? <WrittenText>“{returnedBy.comments}”</WrittenText> : null}
              <Button type="primary" onClick={handleEdit}>
                Edit the request
              </Button>
            </Flex>
          }
          data-testid="returned-for-edits"
        />
      ) : null}
      <Card size={isMobile ? 'small' : 'medium'}>
        <Flex vertical gap={16}>
          <Flex justify="space-between" align="flex-start" gap={12} wrap>
            <Flex vertical gap={4} style={{ minWidth: 0 }}>
              <Flex align="center" gap={8} wrap>
                <Typography.Title level={2} style={{ margin: 0, fontSize: isMobile ? 20 : 24 }}>
                  Approval Request
                </Typography.Title>
                <Tag color="blue">{purposeLabels[request.purpose]}</Tag>
                <StatusTag status={request.current_status} />
              </Flex>
              <Typography.Text type="secondary">
                {request.request_owner_name} · Version {request.version}
              </Typography.Text>
            </Flex>
            <Flex gap={8} wrap className="no-print">
              <Button onClick={() => void navigate(paths.dashboard.approvalMatrix.getHref())}>
                See Approval Matrix
              </Button>
              <Button icon={<PrinterOutlined />} onClick={() => window.print()}>
                Print
              </Button>
              <Button onClick={onBack}>Back</Button>
            </Flex>
          </Flex>
          <VersionSelector request={request} value={versionId} onChange={onVersionChange} />
          {isRefreshing ? <Skeleton.Input active size="small" /> : null}
          <ApprovalProgress request={request} />
        </Flex>
      </Card>

      {isHistory ? (
        <Alert
          type="info"
          showIcon
          title="You are viewing an earlier version of this request. It is read-only."
          data-testid="history-notice"
        />
      ) : null}

      {request.approval_number ? (
        <Card size="small" data-testid="approval-number">
          <Typography.Text type="secondary">Approval Number</Typography.Text>
          <div className="approval-number">{request.approval_number}</div>
        </Card>
      ) : null}

      <Card size={isMobile ? 'small' : 'medium'} title="Request details">
        <RequestDetails request={request} />
      </Card>

      {pastReviews.length > 0 ? (
        <Row gutter={[16, 16]}>
          {pastReviews.map((review) => (
            <Col key={review.id} xs={24} md={12} xl={8}>
              <ReviewerCard review={review} />
            </Col>
          ))}
        </Row>
      ) : null}

      {answeredStepRole ? (
        <Alert
          type="info"
          showIcon
          title={`You have already answered another step of this request, so you cannot answer this one. Another ${roleLabels[answeredStepRole]}, or a delegate you name, must answer it.`}
          data-testid="another-step-notice"
        />
      ) : null}

      {isReviewer && pendingReview ? (
        <ReviewPanel
          request={request}
          reviewId={pendingReview.id}
          onBehalfOf={onBehalfOf}
          onReviewed={() => onOutcome('reviewed')}
        />
      ) : null}

      {canEdit || canRequestRetirement || hasRetirement ? (
        <Flex gap={12} wrap justify="flex-end" className="no-print">
          {canEdit ? (
            <Button type="primary" onClick={handleEdit}>
              Edit
            </Button>
          ) : null}
          {hasRetirement ? <RetirementLinkButton request={request} isOwner={isOwner} /> : null}
          {canRequestRetirement ? (
            <RequestRetirementButton
              requestId={request.id}
              onRequested={() => onOutcome('retirement-requested')}
            />
          ) : null}
        </Flex>
      ) : null}
      {/* Folded away on screen, nothing of it on paper. */}
      <div className="no-print">
        <ObjectHistoryCard object_type="request" object_id={request.id} />
      </div>
    </Flex>
  );
}
