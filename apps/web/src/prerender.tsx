import { renderToString } from 'react-dom/server';
import { createMemoryRouter } from 'react-router';
import { App } from './app/app.tsx';
import { routes } from './app/router.tsx';
import { createQueryClient } from './lib/query-client.ts';
import { paths } from './paths.ts';

/**
 * The sign-in page as HTML, rendered by the build (vite/prerender-sign-in.ts) into index.html: a
 * visitor sees the form as soon as the page and its stylesheet arrive, before the app's code has
 * (issue 13: sign-in's First Contentful Paint). Rendered as the browser first renders it for
 * someone signed out at / (nothing stored, the setup status not yet known), so that main.tsx can
 * hydrate it.
 */
export function renderSignInPage(): string {
  const router = createMemoryRouter(routes, { initialEntries: [paths.signIn.getHref()] });
  return renderToString(<App router={router} queryClient={createQueryClient()} />);
}
