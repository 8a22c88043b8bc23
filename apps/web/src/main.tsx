// First: fetches a returning user's dashboard while the rest of the app evaluates (issue 13).
import './app/preload.ts';
// Then: configures zod before any module builds a schema.
import './lib/zod-config.ts';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { startHomePrefetch } from './features/dashboard/api/start-home-prefetch.ts';
import { createRouter } from './app/router.tsx';
import { createQueryClient } from './lib/query-client.ts';
import { startColdStartValidation } from './lib/session.tsx';
import { readUser } from './lib/storage.ts';
import { registerServiceWorker } from './lib/service-worker.ts';
import './styles.css';

// antd's theme and locale wrap every page but sign-in (app/antd-provider.tsx, issue 13).

startColdStartValidation();
const queryClient = createQueryClient();
// Someone signed in opening Home (index.html's boot script): Home's data is asked for now, beside
// the session's validation (issue 13).
const storedUser = readUser();
if (document.documentElement.dataset.firstPage === 'home' && storedUser) {
  startHomePrefetch(queryClient, storedUser);
}
const router = createRouter();
const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('index.html has no #root element');

const app = <App router={router} queryClient={queryClient} />;
if (!rootElement.hasAttribute('data-prerendered')) {
  createRoot(rootElement).render(app);
} else if (document.documentElement.dataset.firstPage === 'sign-in') {
  // The sign-in page index.html holds (vite/prerender-sign-in.ts) is this page: React takes over
  // its HTML as it stands, the fields as the visitor may have filled them.
  rootElement.removeAttribute('data-prerendered');
  hydrateRoot(rootElement, app);
} else {
  // Any other page: the sign-in page's HTML, hidden meanwhile (styles.css), makes way.
  rootElement.replaceChildren();
  rootElement.removeAttribute('data-prerendered');
  createRoot(rootElement).render(app);
}

registerServiceWorker();
