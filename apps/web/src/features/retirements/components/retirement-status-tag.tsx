import { retirementStatusLabels, type RetirementStatus } from '@imprest/domain/enums.ts';
import { StatusTag } from '../../../components/status-tag.tsx';

/** A retirement status with its label ('Not Submitted', 'Under Review', 'Approved', 'Rejected'). */
export function RetirementStatusTag({ status }: { status: RetirementStatus }) {
  return <StatusTag status={status} label={retirementStatusLabels[status]} />;
}
