/**
 * A ref callback that focuses its element when it mounts: for what replaces the control that held
 * the focus (a success panel replacing its form), so the focus does not fall back to <body> and a
 * screen reader reads what appeared (WCAG 2.4.3, 4.1.3).
 */
export function focusOnMount(element: HTMLElement | null): void {
  element?.focus();
}

/** Whether the focus has been lost: nothing, or <body>, holds it (as when its control was removed). */
export function isFocusLost(): boolean {
  const active = document.activeElement;
  return active === null || active === document.body;
}

/**
 * Focuses the control now at `index` of `controls` (or the last one), else `fallback`: where the
 * focus goes when the control at `index`, which held it, was removed (a chip, an error, a row's
 * button), rather than the page's start, from where a keyboard user would tab all the way back.
 */
export function focusInPlaceOf(
  controls: ArrayLike<HTMLElement>,
  index: number,
  fallback: HTMLElement | null | undefined,
): void {
  const next = controls[Math.min(index, controls.length - 1)];
  (next ?? fallback)?.focus();
}
