import type { MouseEvent } from 'react';

/**
 * A click handler that leaves out the second click of a double click (`detail` 2 and up), so a
 * double click is one action however long the first one took. A small download can end before a
 * double click's second click arrives; useOneAtATime then no longer holds that click back, and the
 * file was saved twice (seen in CI). A key press (`detail` 0) always acts.
 */
export function firstClickOnly(action: () => void): (event: MouseEvent) => void {
  return (event) => {
    if (event.detail > 1) return;
    action();
  };
}
