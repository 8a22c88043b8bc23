import { breakpoints } from '@imprest/domain/constants.ts';
import { useSyncExternalStore } from 'react';

/** Whether a CSS media query currently matches; follows changes. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** Below the tablet breakpoint (768 px, spec §9) the app uses its mobile layout. */
export function useIsMobile(): boolean {
  return useMediaQuery(`(max-width: ${breakpoints.tablet - 0.02}px)`);
}

/**
 * Below the laptop breakpoint (992 px) the side menu shows icons only. It is antd's `lg` too: a
 * table leaves out its columns marked `responsive: ['lg']` below it, and says what they hold under
 * a row's name.
 */
export function useIsNarrow(): boolean {
  return useMediaQuery(`(max-width: ${breakpoints.laptop - 0.02}px)`);
}

/**
 * antd's grid breakpoints that a table column's `responsive` names here besides `md` and `lg`, which
 * are the app's tablet and laptop breakpoints (useIsMobile, useIsNarrow): `sm` and `xl`.
 */
const gridBreakpoints = { sm: 576, xl: 1200 } as const;

/**
 * From 576 px (antd's `sm`) a table shows its columns marked `responsive: ['sm']`; below it, a row
 * says what they hold under its name.
 */
export function useIsSmallUp(): boolean {
  return useMediaQuery(`(min-width: ${gridBreakpoints.sm}px)`);
}

/** Below 1200 px (antd's `xl`) a table leaves out its columns marked `responsive: ['xl']`. */
export function useIsBelowXl(): boolean {
  return useMediaQuery(`(max-width: ${gridBreakpoints.xl - 0.02}px)`);
}
