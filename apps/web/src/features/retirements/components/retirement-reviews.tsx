import type { RetirementReviewResponse } from '@imprest/domain/api/retirements.ts';
import { Col, Row, Typography } from 'antd';
import { ReviewerCard } from '../../../components/reviewer-card.tsx';

type RetirementReviewsProps = { reviews: RetirementReviewResponse[] };

/**
 * Spec §2: earlier reviews with reviewer role, name, comments and status, pending ones skipped;
 * every submission's, in order, each card saying which submission it answered once there are several.
 */
export function RetirementReviews({ reviews }: RetirementReviewsProps) {
  const answered = reviews
    .filter((review) => review.status !== 'pending')
    .sort((a, b) => a.round - b.round || a.step - b.step);
  if (answered.length === 0) return null;
  const hasRounds = answered.some((review) => review.round > 1);
  return (
    <Row gutter={[16, 16]} data-testid="retirement-reviews">
      {answered.map((review) => (
        <Col key={review.id} xs={24} md={12} xl={8}>
          <ReviewerCard
            review={review}
            extra={
              hasRounds ? (
                <Typography.Text type="secondary">Submission {review.round}</Typography.Text>
              ) : null
            }
          />
        </Col>
      ))}
    </Row>
  );
}
