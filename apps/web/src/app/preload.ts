import { paths } from '../paths.ts';
import { storageKeys } from '../lib/storage-keys.ts';
import { routeModules } from './route-modules.ts';

/**
 * Issue 13 (Home's Largest Contentful Paint): someone signed in who opens the dashboard needs
 * antd's frame, the dashboard's frame and, on Home, the page and its table. The router asks for
 * them only once the whole app has evaluated and rendered; this module is main.tsx's first import,
 * so its body runs as soon as the React and zod chunks have evaluated, before the app's own
 * modules, and the files download meanwhile. Nobody signed in goes to the sign-in page instead:
 * nothing is fetched for them.
 */
function preloadDashboard(): void {
  const path = window.location.pathname;
  if (!path.startsWith(paths.dashboard.home.path)) return;
  let hasToken = false;
  try {
    hasToken = Boolean(window.localStorage.getItem(storageKeys.token));
  } catch {
    return;
  }
  if (!hasToken) return;
  const modules: (() => Promise<unknown>)[] = [routeModules.antd, routeModules.dashboardLayout];
  if (path.replace(/\/+$/, '') === paths.dashboard.home.path) {
    modules.push(routeModules.home, routeModules.requestsTable);
  }
  // The router imports the same modules; a failure here shows there, when they are needed.
  for (const load of modules) load().catch(() => undefined);
}

preloadDashboard();
