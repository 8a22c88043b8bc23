/**
 * The full-screen loader shown while the session is validated (spec §2). Plain HTML and CSS
 * (styles.css): it shows before antd has loaded (issue 13).
 */
export function FullScreenLoader() {
  return (
    <div
      role="status"
      aria-label="Loading"
      data-testid="fullscreen-loader"
      className="fullscreen-loader"
    >
      <span className="fullscreen-loader-spinner" aria-hidden="true" />
      <span className="fullscreen-loader-text">Loading…</span>
    </div>
  );
}
