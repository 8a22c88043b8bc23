import type { OutstandingRetirement } from '@imprest/domain/api/retirements.ts';
import { retirementStatusLabels } from '@imprest/domain/enums.ts';
import { retirementMilestones, retirementWarning } from '@imprest/domain/retirements.ts';
import { Button, Card, Flex, Tag } from 'antd';
import { useNavigate } from 'react-router';
import { StatusTag } from '../../../components/status-tag.tsx';
import { formatAmount, formatDate } from '../../../lib/format.ts';
import { purposeLabel } from '../../../lib/request-labels.ts';
import { paths } from '../../../paths.ts';
import './home.css';
import { organisationToday } from '../../../lib/organisation-day.ts';

type OutstandingRetirementsProps = {
  retirements: OutstandingRetirement[];
  cardSize: 'small' | 'medium';
};

/** The next day that matters to the owner: the escalation, then the first day of a possible lock. */
function nextMilestone(dueDate: string, today: string): { label: string; date: string } {
  const { escalatesOn, locksOn } = retirementMilestones(dueDate);
  if (today < escalatesOn) return { label: 'Escalates on', date: escalatesOn };
  return { label: 'May be locked from', date: locksOn };
}

/**
 * Home: the user's retirements still to account for (pending or rejected, oldest due first), with
 * what, how much, when due and the next warning date, each opening its retirement form.
 */
export function OutstandingRetirements({ retirements, cardSize }: OutstandingRetirementsProps) {
  const navigate = useNavigate();
  const today = organisationToday();
  return (
    <Card title="Outstanding Retirements" size={cardSize} data-testid="outstanding-retirements">
      <Flex vertical>
        {retirements.map((retirement, index) => {
          const warning = retirementWarning(retirement.due_date, today);
          const isPastGrace = warning.level === 'error';
          const milestone = nextMilestone(retirement.due_date, today);
          const isOverdue = retirement.due_date < today;
          return (
            <Flex
              key={retirement.id}
              justify="space-between"
              align="center"
              gap={12}
              wrap
              style={{
                padding: '12px 0',
                borderTop: index === 0 ? undefined : '1px solid rgba(5, 5, 5, 0.06)',
              }}
              data-testid="outstanding-retirement"
            >
              <Flex vertical gap={4} style={{ minWidth: 0, flex: '1 1 240px' }}>
                <Flex gap={8} align="center" wrap>
                  <strong>{purposeLabel(retirement.purpose)}</strong>
                  <span>{formatAmount(retirement.amountReceived, retirement.amount_currency)}</span>
                  <StatusTag
                    status={retirement.status}
                    label={retirementStatusLabels[retirement.status]}
                  />
                </Flex>
                <Flex gap={8} align="center" wrap>
                  <span className={isOverdue ? 'home-text-danger' : 'home-text-secondary'}>
                    Due {formatDate(retirement.due_date)}
                  </span>
                  {isPastGrace ? (
                    <Tag color="error">Past the grace period</Tag>
                  ) : (
                    <span className="home-text-secondary">
                      · {milestone.label} {formatDate(milestone.date)}
                    </span>
                  )}
                </Flex>
              </Flex>
              <Button
                size="small"
                type="primary"
                onClick={() =>
                  void navigate(paths.dashboard.retirement.getHref(retirement.request_id))
                }
              >
                {retirement.status === 'rejected' ? 'View Retirement' : 'Submit Retirement'}
              </Button>
            </Flex>
          );
        })}
      </Flex>
    </Card>
  );
}
