import { Tag } from 'antd';
import { humanize } from '../lib/format.ts';

const colours: Record<string, string> = {
  pending: 'gold',
  on_progress: 'processing',
  approved: 'success',
  rejected: 'error',
  request_edit: 'orange',
};

type StatusTagProps = { status: string };

/** A request or review status as a coloured tag. */
export function StatusTag({ status }: StatusTagProps) {
  return <Tag color={colours[status] ?? 'default'}>{humanize(status)}</Tag>;
}
