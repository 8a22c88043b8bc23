import { labelOf, requestStatusLabels } from '@imprest/domain/enums.ts';
import { Tag } from 'antd';

const colours: Record<string, string> = {
  pending: 'gold',
  on_progress: 'processing',
  approved: 'success',
  rejected: 'error',
  request_edit: 'orange',
};

type StatusTagProps = {
  status: string;
  /** The words shown; a request's status in words by default (e.g. retirementStatusLabels instead). */
  label?: string;
};

/** A request, review or retirement status as a coloured tag. */
export function StatusTag({ status, label }: StatusTagProps) {
  return (
    <Tag color={colours[status] ?? 'default'}>{label ?? labelOf(requestStatusLabels, status)}</Tag>
  );
}
