import {
  CheckCircleFilled,
  ClockCircleOutlined,
  CloseCircleFilled,
  EditFilled,
  SyncOutlined,
} from '@ant-design/icons';
import type { RequestStatus } from '@imprest/domain/enums.ts';

const icons: Record<RequestStatus, { icon: typeof CheckCircleFilled; color: string }> = {
  request_edit: { icon: EditFilled, color: '#d46b08' },
  on_progress: { icon: SyncOutlined, color: '#1d4ed8' },
  approved: { icon: CheckCircleFilled, color: '#389e0d' },
  rejected: { icon: CloseCircleFilled, color: '#cf1322' },
  pending: { icon: ClockCircleOutlined, color: '#8c8c8c' },
};

type StatusIconProps = { status: RequestStatus; label?: string };

/** The icon of a request or review status (spec §2: request_edit, on_progress, approved, rejected, pending). */
export function StatusIcon({ status, label }: StatusIconProps) {
  const { icon: Icon, color } = icons[status];
  return (
    <Icon
      style={{ color, fontSize: 24 }}
      aria-label={label ?? status}
      data-status={status}
      role="img"
    />
  );
}
