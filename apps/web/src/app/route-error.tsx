import { useEffect, useState } from 'react';
import { useRouteError } from 'react-router';
import { useDocumentTitle } from '../lib/document-title.ts';

/**
 * What a page that could not be loaded shows: its code did not arrive (the network dropped as it
 * was opened, or a new release replaced the files an open tab still names). React Router's own
 * page said "Unexpected Application Error! … Hey developer" with the error's text. Plain HTML and
 * CSS (styles.css), as antd itself may be what failed to load.
 */
export function RouteError() {
  const error = useRouteError();
  const [isOnline, setIsOnline] = useState(() => navigator.onLine);
  useDocumentTitle('Page not loaded');
  useEffect(() => {
    const update = () => setIsOnline(navigator.onLine);
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
    };
  }, []);
  useEffect(() => {
    // Kept for whoever looks at the console; the page itself names nothing of it.
    console.error(error);
  }, [error]);
  return (
    <main className="route-error" data-testid="route-error">
      <h1>This page could not be loaded.</h1>
      <p role="status">
        {isOnline
          ? 'Imprest may have been updated since this tab was opened. Reload to continue.'
          : 'You seem to be offline. Check your connection, then reload.'}
      </p>
      <button type="button" onClick={() => window.location.reload()}>
        Reload
      </button>
    </main>
  );
}
