/**
 * Local storage keys: the session keeps the token and the user (spec §3, §9), plus the mode, and
 * how the last session ended, which the browser's other tabs read as it goes.
 */
export const storageKeys = {
  token: 'token',
  user: 'user',
  mode: 'mode',
  sessionEnd: 'imprest.session-end',
} as const;
