import { paths } from '../paths.ts';

/** The query parameter of the sign-in page naming where to go once signed in. */
export const nextParam = 'next';

/**
 * The dashboard path a signed-out reader asked for (an e-mail link), or null. Only same-origin
 * paths under /dashboard pass, so the parameter cannot send anyone to another site.
 */
export function safeNextPath(value: string | null | undefined): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) {
    return null;
  }
  let url: URL;
  try {
    url = new URL(value, window.location.origin);
  } catch {
    return null;
  }
  const home = paths.dashboard.home.path;
  if (url.origin !== window.location.origin) return null;
  if (url.pathname !== home && !url.pathname.startsWith(`${home}/`)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The sign-in page, remembering `next` when it is a dashboard path worth coming back to. */
export function signInHref(next?: string | null): string {
  const path = safeNextPath(next);
  if (!path || path === paths.dashboard.home.path) return paths.signIn.getHref();
  return `${paths.signIn.getHref()}?${new URLSearchParams({ [nextParam]: path }).toString()}`;
}

/** Where to go after signing in: the remembered dashboard path, else the dashboard home. */
export function afterSignInHref(search: string): string {
  return safeNextPath(new URLSearchParams(search).get(nextParam)) ?? paths.dashboard.home.getHref();
}
