import { routeModules } from './route-modules.ts';

/**
 * Issue 13 (Home's Largest Contentful Paint): someone signed in who opens the dashboard needs
 * antd's frame, the dashboard's frame and, on Home, the page and its tables. The router asks for
 * them only once the whole app has evaluated and rendered; this module is main.tsx's first import,
 * so its body runs as soon as the React and zod chunks have evaluated, before the app's own
 * modules. index.html's boot script (vite/boot-script.ts) has named the page being opened on
 * <html>, and started downloading these files already; here they are evaluated too. Nobody signed
 * in goes to the sign-in page instead: nothing is fetched for them.
 */
function preloadDashboard(): void {
  const page = document.documentElement.dataset.firstPage;
  if (page !== 'home' && page !== 'dashboard') return;
  const modules: (() => Promise<unknown>)[] = [routeModules.antd, routeModules.dashboardLayout];
  if (page === 'home') {
    modules.push(routeModules.home, routeModules.requestsTable, routeModules.retirementsTable);
  }
  // The router imports the same modules; a failure here shows there, when they are needed.
  for (const load of modules) load().catch(() => undefined);
}

preloadDashboard();
