import type { ReviewResponse } from '@imprest/domain/api/reviews.ts';
import { Card, Flex, Typography } from 'antd';
import { StatusTag } from '../../../components/status-tag.tsx';
import { formatDate } from '../../../lib/format.ts';

type ReviewerCardProps = { review: ReviewResponse };

/** Spec §2 shared widget: a reviewer's position, role, name, comments and status. */
export function ReviewerCard({ review }: ReviewerCardProps) {
  return (
    <Card
      size="small"
      title={review.title}
      extra={<StatusTag status={review.status} />}
      style={{ height: '100%' }}
      data-testid="reviewer-card"
    >
      <Flex vertical gap={4}>
        <Typography.Text strong>{review.reviewer_title}</Typography.Text>
        <Typography.Text>{review.reviewer_name ?? ''}</Typography.Text>
        {review.reviewed_at ? (
          <Typography.Text type="secondary">{formatDate(review.reviewed_at)}</Typography.Text>
        ) : null}
        <Typography.Paragraph
          style={{ margin: '8px 0 0', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
        >
          {review.comments || <Typography.Text type="secondary">No comments</Typography.Text>}
        </Typography.Paragraph>
      </Flex>
    </Card>
  );
}
