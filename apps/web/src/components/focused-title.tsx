import type { ReactNode } from 'react';
import { focusOnMount } from '../lib/focus.ts';

/**
 * The title of a result that replaces a form (a success panel): it takes the focus when it
 * appears, so a screen reader reads the outcome and the next Tab continues from there rather than
 * from the page's start (WCAG 2.4.3, 4.1.3).
 */
export function FocusedTitle({ children }: { children: ReactNode }) {
  return (
    <span tabIndex={-1} ref={focusOnMount} className="focus-landing">
      {children}
    </span>
  );
}
