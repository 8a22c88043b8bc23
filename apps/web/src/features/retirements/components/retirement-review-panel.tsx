import type { RetirementResponse } from '@imprest/domain/api/retirements.ts';
import type { RetirementDecision } from '@imprest/domain/api/retirements.ts';
import { cashToReturn } from '@imprest/domain/retirements.ts';
import { Alert, Card, Checkbox, Flex, Input, Typography } from 'antd';
import { useState } from 'react';
import { DecisionButtons, type DecisionChoice } from '../../../components/decision-buttons.tsx';
import { formatAmount } from '../../../lib/format.ts';
import { useReviewRetirement } from '../api/review-retirement.ts';
import { retirementFieldLabels as labels } from './retirement-fields.ts';
import { useOneAtATime } from '../../../lib/use-one-at-a-time.ts';

/** Spec §2 Retirement form, admin: Reject and Accept. */
const decisions: readonly DecisionChoice<RetirementDecision>[] = [
  { decision: 'rejected', label: 'Reject', look: 'danger' },
  { decision: 'approved', label: 'Accept', look: 'primary' },
];

type RetirementReviewPanelProps = {
  retirement: RetirementResponse;
  /** The first pending review of the current submission, which this reviewer answers. */
  reviewId: string;
  onReviewed: () => void;
};

/**
 * Spec §2 Retirement form, admin: review comments, 'Cash Returned (currency amount)' when more was
 * received than spent (the amount is the difference), Reject and Accept.
 */
export function RetirementReviewPanel({
  retirement,
  reviewId,
  onReviewed,
}: RetirementReviewPanelProps) {
  const [comments, setComments] = useState('');
  // An earlier reviewer of this round confirmed the cash came back: shown so, not asked again.
  const isConfirmed = retirement.is_funds_returned;
  const [isCashReturned, setIsCashReturned] = useState(false);
  const [decision, setDecision] = useState<RetirementDecision | null>(null);
  const review = useReviewRetirement({ onReviewed });
  const sendReview = useOneAtATime(review);
  const leftOver = cashToReturn(retirement.amountReceived, retirement.amount_spent);
  // Spec §2: only when amountReceived is greater than amount_spent; cashToReturn is 0 otherwise.
  const hasLeftOver = leftOver > 0;

  function handleDecision(status: RetirementDecision) {
    setDecision(status);
    sendReview({
      id: retirement.id,
      review_id: reviewId,
      status,
      comments: comments.trim(),
      is_funds_returned: hasLeftOver && (isCashReturned || isConfirmed),
    });
  }

  return (
    <Card title="Your review" data-testid="retirement-review-panel">
      <Flex vertical gap={12}>
        {review.isError ? (
          <Alert
            type="error"
            showIcon
            title="The review could not be saved."
            description={review.error.message}
            data-testid="retirement-review-error"
          />
        ) : null}
        <label htmlFor="retirement-review-comments">
          <Typography.Text>{labels.reviewComments}</Typography.Text>
        </label>
        <Input.TextArea
          id="retirement-review-comments"
          rows={3}
          maxLength={5000}
          value={comments}
          onChange={(event) => setComments(event.target.value)}
          disabled={review.isPending}
        />
        {hasLeftOver ? (
          <Flex vertical gap={2}>
            <Checkbox
              checked={isCashReturned || isConfirmed}
              onChange={(event) => setIsCashReturned(event.target.checked)}
              disabled={review.isPending || isConfirmed}
              data-testid="cash-returned"
            >
              Cash Returned ({formatAmount(leftOver, retirement.amount_currency)})
            </Checkbox>
            {isConfirmed ? (
              <Typography.Text type="secondary" data-testid="cash-returned-confirmed">
                An earlier reviewer confirmed the cash came back.
              </Typography.Text>
            ) : null}
          </Flex>
        ) : null}
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
