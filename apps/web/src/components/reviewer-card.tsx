import { Card, Flex, Typography } from 'antd';
import type { ReactNode } from 'react';
import { formatDate } from '../lib/format.ts';
import { StatusTag } from './status-tag.tsx';
import { WrittenText } from './written-text.tsx';

/** What the card shows of a request's or a retirement's review (spec §3 Review). */
export type ReviewerCardReview = {
  /** 'First Reviewer' … 'Fourth Reviewer'. */
  title: string;
  reviewer_title: string;
  reviewer_name: string | null;
  comments: string;
  status: string;
  reviewed_at: string | null;
  /** The delegator a delegate answered for (issue 15); a retirement review has none. */
  on_behalf_of?: { name: string } | null;
};

/**
 * Who answered a step: the reviewer, or for a delegate's answer "<reviewer> on behalf of
 * <delegator>" (issue 15: the review records both names).
 */
export function answeredByText(review: Pick<ReviewerCardReview, 'reviewer_name' | 'on_behalf_of'>) {
  const name = review.reviewer_name ?? '';
  return review.on_behalf_of ? `${name} on behalf of ${review.on_behalf_of.name}` : name;
}

/** Who answered a step, with their position: "Chausiku Finance (Finance Officer)". */
export function reviewerWithTitle(
  review: Pick<ReviewerCardReview, 'reviewer_name' | 'on_behalf_of' | 'reviewer_title'>,
): string {
  const name = answeredByText(review);
  return name ? `${name} (${review.reviewer_title})` : `The ${review.reviewer_title}`;
}

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
        <Typography.Text data-testid="reviewer-name">{answeredByText(review)}</Typography.Text>
        {review.reviewed_at ? (
          <Typography.Text type="secondary">{formatDate(review.reviewed_at)}</Typography.Text>
        ) : null}
        {extra}
        <Typography.Paragraph style={{ margin: '8px 0 0' }}>
          {review.comments ? (
            <WrittenText>{review.comments}</WrittenText>
          ) : (
            <Typography.Text type="secondary">No comments</Typography.Text>
          )}
        </Typography.Paragraph>
      </Flex>
    </Card>
  );
}
