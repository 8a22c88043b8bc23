import type { RequestResponse } from '@imprest/domain/api/requests.ts';
import {
  labelOf,
  requestStatusLabels,
  retirementStatusLabels,
  type RequestStatus,
} from '@imprest/domain/enums.ts';
import { firstPendingReview, isAwaitingReview } from '@imprest/domain/requests.ts';
import { Steps, type StepsProps } from 'antd';
import { answeredByText } from '../../../components/reviewer-card.tsx';
import { formatDate } from '../../../lib/format.ts';
import { useIsMobile } from '../../../lib/use-media-query.ts';
import { StatusIcon } from './status-icon.tsx';

type StepItem = NonNullable<StepsProps['items']>[number];

function reviewStep(review: RequestResponse['reviews'][number], isCurrent: boolean): StepItem {
  const who = review.reviewer_name ? `${answeredByText(review)} · ` : '';
  if (review.status === 'pending') {
    const status: RequestStatus = isCurrent ? 'on_progress' : 'pending';
    return {
      title: review.reviewer_title,
      content: isCurrent ? 'Awaiting review' : 'Pending',
      status: isCurrent ? 'process' : 'wait',
      icon: <StatusIcon status={status} label={requestStatusLabels[status]} />,
    };
  }
  return {
    title: review.reviewer_title,
    content: `${who}${labelOf(requestStatusLabels, review.status)}${review.reviewed_at ? ` · ${formatDate(review.reviewed_at)}` : ''}`,
    status: review.status === 'approved' ? 'finish' : 'error',
    icon: <StatusIcon status={review.status} label={labelOf(requestStatusLabels, review.status)} />,
  };
}

type ApprovalProgressProps = { request: RequestResponse };

/**
 * Spec §2: Received, each reviewer in order (two or three, up to four), Approved, and Completed
 * once a retirement exists.
 */
export function ApprovalProgress({ request }: ApprovalProgressProps) {
  const isMobile = useIsMobile();
  const reviews = [...request.reviews].sort((a, b) => a.step - b.step);
  const current = isAwaitingReview(request.current_status)
    ? firstPendingReview(reviews)
    : undefined;
  const isApproved = request.current_status === 'approved';

  const items: StepItem[] = [
    {
      title: 'Received',
      content: formatDate(request.created_at),
      status: 'finish',
      icon: <StatusIcon status="approved" label="Received" />,
    },
    ...reviews.map((review) => reviewStep(review, review.id === current?.id)),
    {
      title: 'Approved',
      content: request.approval_number ?? undefined,
      status: isApproved ? 'finish' : 'wait',
      icon: (
        <StatusIcon
          status={isApproved ? 'approved' : 'pending'}
          label={isApproved ? 'Approved' : 'Pending'}
        />
      ),
    },
  ];
  if (request.current_retirement) {
    const isCompleted = request.current_retirement.status === 'approved';
    items.push({
      title: 'Completed',
      content: retirementStatusLabels[request.current_retirement.status],
      status: isCompleted ? 'finish' : 'wait',
      icon: (
        <StatusIcon
          status={isCompleted ? 'approved' : 'pending'}
          label={isCompleted ? 'Completed' : 'Pending'}
        />
      ),
    });
  }

  return (
    <nav aria-label="Approval progress" data-testid="approval-progress">
      <Steps
        items={items}
        orientation={isMobile ? 'vertical' : 'horizontal'}
        size={isMobile ? 'small' : 'default'}
        titlePlacement={isMobile ? 'horizontal' : 'vertical'}
      />
    </nav>
  );
}
