import { Tag } from 'antd';
import { humanize } from '../lib/format.ts';

const colours: Record<string, string> = {
  pending: 'gold',
  on_progress: 'processing',
  approved: 'success',
  rejected: 'error',
  request_edit: 'orange',
};

type StatusTagProps = {
  status: string;
  /** The words shown; the status in words by default (e.g. retirementStatusLabels instead). */
  label?: string;
};

/** A request, review or retirement status as a coloured tag. */
export function StatusTag({ status, label }: StatusTagProps) {
  return <Tag color={colours[status] ?? 'default'}>{label ?? humanize(status)}</Tag>;
}
