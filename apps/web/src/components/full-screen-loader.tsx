import { Spin } from 'antd';

/** The full-screen loader shown while the session is validated (spec §2). */
export function FullScreenLoader() {
  return (
    <div
      role="status"
      aria-label="Loading"
      data-testid="fullscreen-loader"
      style={{ position: 'fixed', inset: 0, zIndex: 1000 }}
    >
      <Spin fullscreen size="large" description="Loading…" />
    </div>
  );
}
