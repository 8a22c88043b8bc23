import type { RetirementResponse } from '@imprest/domain/api/retirements.ts';
import { retirementMilestones, retirementWarning } from '@imprest/domain/retirements.ts';
import { Alert } from 'antd';
import { formatDate } from '../../../lib/format.ts';
import { organisationToday } from '../../../lib/organisation-day.ts';

type RetirementWarningBannerProps = { retirement: RetirementResponse };

/**
 * Spec §8: the warning of a pending retirement, an error once past the 30-day grace period; with
 * the due date and the days that follow it, so the owner knows how long is left.
 */
export function RetirementWarningBanner({ retirement }: RetirementWarningBannerProps) {
  if (retirement.status !== 'pending') return null;
  const warning = retirementWarning(retirement.due_date, organisationToday());
  const { escalatesOn, locksOn } = retirementMilestones(retirement.due_date);
  return (
    <Alert
      type={warning.level}
      showIcon
      title={warning.message}
      description={`Due ${formatDate(retirement.due_date)} · escalates on ${formatDate(
        escalatesOn,
      )} · the account may be locked from ${formatDate(locksOn)}`}
      data-testid="retirement-warning"
    />
  );
}
