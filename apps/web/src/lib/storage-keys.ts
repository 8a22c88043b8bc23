/** Local storage keys: the session keeps the token and the user (spec §3, §9), plus the mode. */
export const storageKeys = { token: 'token', user: 'user', mode: 'mode' } as const;
