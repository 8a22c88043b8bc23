import { Workbox } from 'workbox-window';

/**
 * Registers the service worker at /sw.js with root scope in production builds (spec §2) and
 * reloads the page once a new version takes control, so nobody keeps running stale code.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const workbox = new Workbox('/sw.js', { scope: '/' });
  workbox.addEventListener('controlling', (event) => {
    if (event.isUpdate) window.location.reload();
  });
  workbox.register().catch((error: unknown) => {
    console.warn('Service worker registration failed', error);
  });
}
