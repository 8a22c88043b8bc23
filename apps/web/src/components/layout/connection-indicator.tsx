import { Tooltip } from 'antd';
import { useRealtimeStatus, type RealtimeStatus } from '../../lib/realtime-status.ts';

const labels: Record<RealtimeStatus, string> = {
  connecting: 'connecting',
  connected: 'connected',
  reconnecting: 'reconnecting',
  offline: 'offline',
};

const hints: Record<RealtimeStatus, string> = {
  connecting: 'Connecting for live updates…',
  connected: 'Lists and counters update as others make changes.',
  reconnecting: 'Connection lost; trying again. Lists may be out of date until then.',
  offline: 'No live updates; reload the page to see the latest changes.',
};

/**
 * A dot in the header saying whether live updates arrive (spec §4 Real-time connection). Its words
 * are inside the status region too, unseen: a region's change of content is announced, a change of
 * its aria-label is not (WCAG 4.1.3).
 */
export function ConnectionIndicator() {
  const status = useRealtimeStatus();
  const label = `Live updates: ${labels[status]}`;
  return (
    <Tooltip title={`${label}. ${hints[status]}`}>
      <span
        role="status"
        aria-label={label}
        tabIndex={0}
        className={`connection-indicator connection-indicator-${status}`}
        data-testid="connection-indicator"
        data-status={status}
      >
        <span className="sr-only">{label}</span>
      </span>
    </Tooltip>
  );
}
