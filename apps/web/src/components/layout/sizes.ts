/** The side menu's width: whole from the laptop breakpoint, icons only below it. */
export const sideMenuWidth = { whole: 232, iconsOnly: 72 } as const;

/** The dashboard's content padding on each side, wider than a phone (styles.css `.dashboard-content`). */
export const contentPadding = 24;
