import { useEffect } from 'react';

/** The product's name after each page's own in the browser's title (`Home – Imprest`). */
export const appName = 'Imprest';

/** The document title of a page named `page`. */
export function documentTitleOf(page: string): string {
  return `${page} – ${appName}`;
}

/**
 * Names the browser tab, its history entries and what a screen reader announces as the page
 * changes after the page on screen (WCAG 2.4.2 Page Titled), rather than 'Imprest' for every page.
 */
export function useDocumentTitle(page: string): void {
  useEffect(() => {
    document.title = documentTitleOf(page);
  }, [page]);
}
