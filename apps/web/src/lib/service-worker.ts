/**
 * Registers the service worker at /sw.js with root scope in production builds (spec §2) and
 * reloads the page once a new version takes control, so nobody keeps running stale code.
 * workbox-window is fetched after the page has loaded (issue 13: not part of the first download).
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const register = async () => {
    const { Workbox } = await import('workbox-window');
    const workbox = new Workbox('/sw.js', { scope: '/' });
    workbox.addEventListener('controlling', (event) => {
      if (event.isUpdate) window.location.reload();
    });
    await workbox.register();
  };
  const start = () => {
    register().catch((error: unknown) => {
      console.warn('Service worker registration failed', error);
    });
  };
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}
