import { userResponse, type UserResponse } from '@imprest/domain/api/user-response.ts';
import { storageKeys } from './storage-keys.ts';

export type Mode = 'staff' | 'admin';

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Storage can be unavailable (private mode, quota); the session then lives in memory only.
  }
}

/** The stored session token, if any. */
export function readToken(): string | null {
  return read(storageKeys.token) || null;
}

/** The stored user, if it is still readable. */
export function readUser(): UserResponse | null {
  const text = read(storageKeys.user);
  if (!text) return null;
  try {
    const parsed = userResponse.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Stores a signed-in session. */
export function writeSession(token: string, user: UserResponse): void {
  write(storageKeys.token, token);
  write(storageKeys.user, JSON.stringify(user));
}

/**
 * How a session ended: `signed-out` on purpose (Log Out, here or in another tab), `ended` by the
 * server (it refused the token: its 7 days ran out, a password changed, a lock).
 */
export type SessionEnd = 'signed-out' | 'ended';

/**
 * Forgets the session and resets the mode to staff (spec §4: logout). How it ended is written
 * first, so that another tab, told that the token is gone, ends its own the same way.
 */
export function clearSession(end: SessionEnd): void {
  write(storageKeys.sessionEnd, end);
  write(storageKeys.token, null);
  write(storageKeys.user, null);
  write(storageKeys.mode, 'staff');
}

/** The stored Staff/Admin mode; staff unless admin was chosen. */
export function readMode(): Mode {
  return read(storageKeys.mode) === 'admin' ? 'admin' : 'staff';
}

/** Remembers the Staff/Admin mode. */
export function writeMode(mode: Mode): void {
  write(storageKeys.mode, mode);
}

/** How the browser's last session ended (see clearSession). */
export function readSessionEnd(): SessionEnd {
  return read(storageKeys.sessionEnd) === 'ended' ? 'ended' : 'signed-out';
}
