import { useEffect, useRef, type RefObject } from 'react';
import { useLocation, useNavigationType } from 'react-router';

/**
 * Moves the focus to the page's title when the dashboard goes to another page (not on the first
 * page it shows, where the browser starts at the top anyway). Without it the focus stays on the
 * link or button that led there, or falls to <body> when that button belonged to the page that
 * left: a screen reader says nothing of the new page, and a keyboard user tabs on from the old
 * one (WCAG 2.4.3 Focus Order). From the title the next Tab reaches the header's actions and then
 * the page.
 *
 * Back and Forward focus the title without scrolling to it, leaving the scroll to the browser.
 */
export function useTitleFocus(title: RefObject<HTMLElement | null>): void {
  const { pathname } = useLocation();
  const navigationType = useNavigationType();
  const shownPath = useRef(pathname);
  useEffect(() => {
    if (shownPath.current === pathname) return;
    shownPath.current = pathname;
    title.current?.focus({ preventScroll: navigationType === 'POP' });
  }, [pathname, navigationType, title]);
}
