import { Card, Flex, Typography } from 'antd';
import type { ReactNode } from 'react';
import { formatDate } from '../lib/format.ts';
import { StatusTag } from './status-tag.tsx';

/** What the card shows of a request's or a retirement's review (spec §3 Review). */
export type ReviewerCardReview = {
  /** 'First Reviewer' … 'Fourth Reviewer'. */
  title: string;
  reviewer_title: string;
  reviewer_name: string | null;
  comments: string;
  status: string;
  reviewed_at: string | null;
};

type ReviewerCardProps = {
  review: ReviewerCardReview;
  /** The status as people read it, when the tag's own wording is not the right one. */
  statusLabel?: string;
  /** A line under the title, e.g. the submission a retirement review belongs to. */
  extra?: ReactNode;
};

/** Spec §2 shared widget: a reviewer's position, role, name, comments and status. */
export function ReviewerCard({ review, statusLabel, extra }: ReviewerCardProps) {
  return (
    <Card
      size="small"
      title={review.title}
      extra={<StatusTag status={review.status} label={statusLabel} />}
      style={{ height: '100%' }}
      data-testid="reviewer-card"
    >
      <Flex vertical gap={4}>
        <Typography.Text strong>{review.reviewer_title}</Typography.Text>
        <Typography.Text>{review.reviewer_name ?? ''}</Typography.Text>
        {review.reviewed_at ? (
          <Typography.Text type="secondary">{formatDate(review.reviewed_at)}</Typography.Text>
        ) : null}
        {extra}
        <Typography.Paragraph
          style={{ margin: '8px 0 0', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
        >
          {review.comments || <Typography.Text type="secondary">No comments</Typography.Text>}
        </Typography.Paragraph>
      </Flex>
    </Card>
  );
}
