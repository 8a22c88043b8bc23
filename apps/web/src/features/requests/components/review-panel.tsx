import type { RequestResponse } from '@imprest/domain/api/requests.ts';
import type { ReviewDecision } from '@imprest/domain/requests.ts';
import { Alert, Card, Flex, Input, Typography } from 'antd';
import { useState } from 'react';
import { DecisionButtons, type DecisionChoice } from '../../../components/decision-buttons.tsx';
import { useReviewRequest } from '../api/review-request.ts';
import { OwnerStanding } from './owner-standing.tsx';
import { useOneAtATime } from '../../../lib/use-one-at-a-time.ts';

/** Spec §2: the step's three answers. */
const decisions: readonly DecisionChoice<ReviewDecision>[] = [
  { decision: 'request_edit', label: 'Return for Edits' },
  { decision: 'rejected', label: 'Reject', look: 'danger' },
  { decision: 'approved', label: 'Accept', look: 'primary' },
];

/** Spec §8: a refused review. */
const reviewFailed = 'Error! Failed to add review';

type ReviewPanelProps = {
  request: RequestResponse;
  /** The first pending review, which this reviewer answers (spec §4). */
  reviewId: string;
  onReviewed: (request: RequestResponse) => void;
  /** The delegator whose step this is, when the user answers it as their delegate (issue 15). */
  onBehalfOf?: { name: string } | null;
};

/**
 * Spec §2: optional comments and Return for Edits, Reject or Accept, for the step's reviewer, with
 * the requester's unretired total and oldest outstanding retirement beside them.
 */
export function ReviewPanel({ request, reviewId, onReviewed, onBehalfOf }: ReviewPanelProps) {
  const [comments, setComments] = useState('');
  const [decision, setDecision] = useState<ReviewDecision | null>(null);
  const review = useReviewRequest({ onReviewed });
  const sendReview = useOneAtATime(review);

  function handleDecision(status: ReviewDecision) {
    setDecision(status);
    sendReview({ id: reviewId, request_id: request.id, status, comments: comments.trim() });
  }

  return (
    <Card title="Your review" className="no-print" data-testid="review-panel">
      <Flex vertical gap={12}>
        {onBehalfOf ? (
          <Alert
            type="info"
            showIcon
            title={`You answer this step on behalf of ${onBehalfOf.name}, as their delegate.`}
            data-testid="on-behalf-of-notice"
          />
        ) : null}
        <OwnerStanding request={request} />
        {review.isError ? (
          <Alert
            type="error"
            showIcon
            title={reviewFailed}
            description={review.error.message}
            data-testid="review-error"
          />
        ) : null}
        <label htmlFor="review-comments">
          <Typography.Text>Comments (optional)</Typography.Text>
        </label>
        <Input.TextArea
          id="review-comments"
          rows={3}
          maxLength={5000}
          value={comments}
          onChange={(event) => setComments(event.target.value)}
          disabled={review.isPending}
        />
        <DecisionButtons
          choices={decisions}
          chosen={decision}
          isPending={review.isPending}
          onDecide={handleDecision}
        />
      </Flex>
    </Card>
  );
}
