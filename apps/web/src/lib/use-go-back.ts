import { useCallback } from 'react';
import { useNavigate } from 'react-router';

/** Whether this tab has an earlier page of the app to go back to (react-router keeps `idx`). */
export function hasPageToGoBackTo(): boolean {
  const state: unknown = window.history.state;
  const index =
    typeof state === 'object' && state !== null && 'idx' in state ? Number(state.idx) : 0;
  return index > 0;
}

/**
 * A Back / Cancel handler: one page back, or to `fallbackHref` when the page was opened directly
 * (a link, a reload in a new tab) and going back would leave the app.
 */
export function useGoBack(fallbackHref: string): () => void {
  const navigate = useNavigate();
  return useCallback(() => {
    if (hasPageToGoBackTo()) void navigate(-1);
    else void navigate(fallbackHref, { replace: true });
  }, [navigate, fallbackHref]);
}
