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

/** A dot in the header saying whether live updates arrive (spec §4 Real-time connection). */
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
      />
    </Tooltip>
  );
}
