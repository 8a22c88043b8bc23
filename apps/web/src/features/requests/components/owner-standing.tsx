import type { RequestResponse } from '@imprest/domain/api/requests.ts';
import { Alert, Flex, Tag, Typography } from 'antd';
import { formatAmount, formatDate } from '../../../lib/format.ts';
import { organisationToday } from '../../../lib/organisation-day.ts';

type OwnerStandingProps = {
  request: Pick<
    RequestResponse,
    'request_owner_name' | 'owner_unretired_total' | 'owner_oldest_due_date'
  >;
};

/**
 * What a reviewer weighs beside the decision: the requester's approved requests not yet retired
 * (in TZS) and their oldest outstanding retirement's due date, flagged once it has passed.
 */
export function OwnerStanding({ request }: OwnerStandingProps) {
  const dueDate = request.owner_oldest_due_date;
  // YYYY-MM-DD texts compare in calendar order.
  const isOverdue = dueDate !== null && dueDate < organisationToday();
  return (
    <Alert
      type={isOverdue ? 'warning' : 'info'}
      showIcon
      data-testid="owner-unretired-total"
      title={`Unretired approved requests of ${request.request_owner_name}: ${formatAmount(
        request.owner_unretired_total,
        'tzs',
      )}`}
      description={
        dueDate ? (
          <Flex gap={8} align="center" wrap data-testid="owner-oldest-due-date">
            <Typography.Text>
              Oldest outstanding retirement due {formatDate(dueDate)}
            </Typography.Text>
            {isOverdue ? <Tag color="error">Overdue</Tag> : null}
          </Flex>
        ) : undefined
      }
    />
  );
}
