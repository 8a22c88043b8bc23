import { authResponse, type AuthResponse } from '@imprest/domain/api/auth.ts';
import type { UserResponse } from '@imprest/domain/api/user-response.ts';
import { isAdmin } from '@imprest/domain/permissions.ts';
import { replaceEqualDeep, useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useNavigate } from 'react-router';
import { FullScreenLoader } from '../components/full-screen-loader.tsx';
import {
  ApiError,
  apiRequest,
  setUnauthorizedHandler,
  tokenRenewalsSettled,
} from './api-client.ts';
import { forgetDrafts, keepDrafts } from './kept-drafts.ts';
import { signInHref } from './next-path.ts';
import { setOrganisationTimeZone } from './organisation-day.ts';
import { useRealtime } from './realtime.ts';
import { storageKeys } from './storage-keys.ts';
import {
  clearSession,
  readMode,
  readSessionEnd,
  readToken,
  readUser,
  writeMode,
  writeSession,
  type Mode,
} from './storage.ts';
import { paths } from '../paths.ts';

/** Token validation states of spec §4 (`idle`: nobody signed in, nothing to validate). */
export type SessionStatus = 'idle' | 'pending' | 'fulfilled' | 'rejected';

/** Who is signed in. The token itself lives in storage, where the API client reads it. */
export type Session = {
  user: UserResponse | null;
  status: SessionStatus;
  /** The effective mode: admin only for users with admin permission. */
  mode: Mode;
  setMode: (mode: Mode) => void;
  signIn: (auth: AuthResponse) => void;
  signOut: () => void;
  revalidate: () => Promise<void>;
  /** Signed out on purpose (here or in another tab): the sign-in page remembers no page. */
  hasSignedOut: boolean;
};

type SessionState = {
  user: UserResponse | null;
  status: SessionStatus;
  hasSignedOut: boolean;
};

const SessionContext = createContext<Session | null>(null);

function initialState(): SessionState {
  if (!readToken()) return { user: null, status: 'idle', hasSignedOut: false };
  return { user: readUser(), status: 'pending', hasSignedOut: false };
}

/** GET users/validate-token: a fresh token and the current user (decisions §2). */
export function validateToken(): Promise<AuthResponse> {
  return apiRequest('users/validate-token', { schema: authResponse });
}

/** Answers that say nothing about the token: too many calls, or a timed-out request. */
const notAboutTheToken = new Set([408, 429]);

/**
 * Whether validating the token was refused (spec §4: a rejection logs out): the server answered
 * about it. A server error or a gateway's (5xx), a rate limit or a timeout says nothing about the
 * token, like no answer.
 */
function isRejection(error: unknown): boolean {
  return error instanceof ApiError && error.status < 500 && !notAboutTheToken.has(error.status);
}

/** The cold-start validation begun by `startColdStartValidation`, until SessionProvider takes it. */
let coldStart: { answer: Promise<AuthResponse>; token: string } | null = null;

/**
 * Starts validating a stored token as the app starts (main.tsx), while the first page's code is
 * still loading, rather than once the router has loaded and rendered it (issue 13: Home's LCP).
 * SessionProvider takes up the answer; the full-screen loader shows until then (spec §4).
 */
export function startColdStartValidation(): void {
  const token = readToken();
  if (!token) return;
  coldStart = { answer: validateToken(), token };
  // Handled where SessionProvider awaits it; not an unhandled rejection meanwhile.
  coldStart.answer.catch(() => undefined);
}

/**
 * Holds the signed-in user. At cold start a stored token is validated behind a full-screen loader;
 * a rejection logs out and goes to / (spec §4). Must sit inside the router.
 *
 * The browser's tabs share one session, the token and the user in local storage (spec §3, §9),
 * and each tab follows it: signed out or ended in one tab, it ends the same way in the others;
 * signed in as someone in one tab, the others show that person (never one user while their calls
 * act as another). An answer about a token that another tab has since replaced changes nothing.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [state, setState] = useState<SessionState>(initialState);
  const [storedMode, setStoredMode] = useState<Mode>(readMode);
  // The state as last drawn, for what answers and other tabs' changes decide after it.
  const stateRef = useRef(state);
  useEffect(() => {
    stateRef.current = state;
  }, [state]);

  const endSession = useCallback(
    (status: SessionStatus) => {
      // The server ended it: what is typed on screen is kept for the same user's return; signed
      // out on purpose, nothing is. (The stored user may be gone already: another tab ended it.)
      if (status === 'rejected') keepDrafts(stateRef.current.user?.id ?? readUser()?.id);
      else forgetDrafts();
      clearSession(status === 'rejected' ? 'ended' : 'signed-out');
      setStoredMode('staff');
      const hasSignedOut = status === 'idle';
      setState({ user: null, status, hasSignedOut });
      queryClient.clear();
      // A session that ran out under an e-mail link keeps the link for after signing in again.
      const here = `${window.location.pathname}${window.location.search}${window.location.hash}`;
      void navigate(signInHref(hasSignedOut ? null : here), { replace: true });
    },
    [navigate, queryClient],
  );

  const signOut = useCallback(() => {
    // The server ends the session too (docs/decisions/0012); the request takes the token before
    // it is cleared below, and signing out here never waits for it or fails with it.
    apiRequest('users/logout', { method: 'POST' }).catch(() => undefined);
    endSession('idle');
  }, [endSession]);

  // This tab's checks of the session, numbered as sent, and the newest whose answer is shown; and
  // the token this tab stored last. Two checks may be in flight at once (a change to the user
  // heard live while the socket's catch-up asks): the later one's answer is the one to show,
  // even when the earlier one, answered first, has renewed the token meanwhile.
  const checks = useRef({ sent: 0, shown: 0, storedHere: null as string | null });

  /** Stores a session and shows its user. */
  const show = useCallback((auth: AuthResponse) => {
    // Someone else's kept input is never shown to this user.
    forgetDrafts(auth.user.id);
    checks.current.storedHere = auth.token;
    writeSession(auth.token, auth.user);
    setOrganisationTimeZone(auth.time_zone);
    // A renewed token for the same user (the socket's catch-up as it joins, an update_user)
    // changes nothing on screen: the state stays as it was, rather than every signed-in page
    // rendering again for it (issue 13: Home's Total Blocking Time).
    setState((previous) =>
      previous.status === 'fulfilled' &&
      replaceEqualDeep(previous.user, auth.user) === previous.user
        ? previous
        : { user: auth.user, status: 'fulfilled', hasSignedOut: false },
    );
  }, []);

  /** Signed in, or handed a new token (a password change): newer than any check still in flight. */
  const signIn = useCallback(
    (auth: AuthResponse) => {
      checks.current.sent += 1;
      checks.current.shown = checks.current.sent;
      show(auth);
    },
    [show],
  );

  /**
   * Follows the session stored for the browser, which another tab may have ended or replaced:
   * ends this tab's the way it ended there, or shows the user signed in there. A renewed token of
   * the same user changes nothing here.
   */
  const followStoredSession = useCallback(() => {
    const { user: shown, status } = stateRef.current;
    const stored = readToken() ? readUser() : null;
    if (!stored) {
      if (status === 'pending' || status === 'fulfilled') {
        endSession(readSessionEnd() === 'ended' ? 'rejected' : 'idle');
      }
      return;
    }
    if (status === 'fulfilled' && shown?.id === stored.id) return;
    // Someone else's kept input is never shown to this user.
    forgetDrafts(stored.id);
    const isAnotherUser = shown !== null && shown.id !== stored.id;
    if (isAnotherUser) {
      queryClient.clear();
      setStoredMode(readMode());
    }
    setState({ user: stored, status: 'fulfilled', hasSignedOut: false });
    // The page open here was the previous user's, which the new one may not see.
    if (isAnotherUser && status === 'fulfilled') {
      void navigate(paths.dashboard.home.getHref(), { replace: true });
    }
  }, [endSession, navigate, queryClient]);

  const revalidate = useCallback(
    async (pending?: { answer: Promise<AuthResponse>; token: string }) => {
      const sent = pending ? pending.token : readToken();
      checks.current.sent += 1;
      const check = checks.current.sent;
      /** Another tab replaced the token since this check was sent (signed in, or renewed it). */
      const isReplacedElsewhere = () =>
        readToken() !== sent && readToken() !== checks.current.storedHere;
      try {
        const auth = await (pending ? pending.answer : validateToken());
        // Signed out while the check was on its way (Log Out right after the socket connected):
        // its answer is about a session that is over and must not sign the user in again.
        if (!readToken()) return;
        // What another tab stored is newer than this answer.
        if (isReplacedElsewhere()) {
          followStoredSession();
          return;
        }
        // A later check's answer is shown already.
        if (check < checks.current.shown) return;
        checks.current.shown = check;
        // At cold start this swaps the loader for the whole signed-in page: a transition, so that
        // React draws it in slices that leave the main thread free (issue 13: Home's Total
        // Blocking Time) rather than in one task of a second or more on a phone.
        startTransition(() => show(auth));
      } catch (error) {
        if (!readToken()) return;
        // A refusal of a token another tab has since replaced says nothing about the new one.
        if (isReplacedElsewhere()) {
          followStoredSession();
          return;
        }
        // Nor of one this tab has since replaced, with a later check's answer.
        if (readToken() !== sent || check < checks.current.shown) return;
        if (isRejection(error)) {
          endSession('rejected');
          return;
        }
        // No answer at all (offline), or none about the token (a gateway's 503 while the server
        // restarts): keep the stored session rather than sign out a user who is merely
        // disconnected; the next answered call decides.
        const user = readUser();
        if (readToken() && user) {
          startTransition(() => setState({ user, status: 'fulfilled', hasSignedOut: false }));
        } else endSession('rejected');
      }
    },
    [endSession, followStoredSession, show],
  );

  const hasStarted = useRef(false);
  useEffect(() => {
    if (hasStarted.current) return;
    hasStarted.current = true;
    const pending = coldStart ?? undefined;
    coldStart = null;
    if (readToken()) void revalidate(pending);
  }, [revalidate]);

  useEffect(() => {
    setUnauthorizedHandler(() => endSession('rejected'));
    return () => setUnauthorizedHandler(null);
  }, [endSession]);

  // Another tab signed out, signed in, or the server ended the session there.
  useEffect(() => {
    function handleStorage(event: StorageEvent) {
      // `key` is null when the whole storage was cleared.
      if (event.key === null || event.key === storageKeys.token || event.key === storageKeys.user) {
        followStoredSession();
      }
    }
    window.addEventListener('storage', handleStorage);
    return () => window.removeEventListener('storage', handleStorage);
  }, [followStoredSession]);

  const handleCurrentUserUpdated = useCallback(() => {
    void revalidate();
  }, [revalidate]);
  // Connect only once the token is known good (not while the cold-start validation runs).
  // The server ended this socket: ask whether the session itself is over. A token replaced while
  // asking (a password change here ends the other sessions and hands this one a new token) is
  // asked about again.
  const handleServerDisconnect = useCallback(async (): Promise<boolean> => {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      await tokenRenewalsSettled();
      const token = readToken();
      if (!token) return false;
      try {
        const auth = await validateToken();
        // Signed out meanwhile: the session this answer is about is over.
        if (!readToken()) return false;
        if (readToken() !== token) {
          followStoredSession();
          return true;
        }
        signIn(auth);
        return true;
      } catch (error) {
        if (!isRejection(error)) return true;
        if (readToken() === token) {
          endSession('rejected');
          return false;
        }
      }
    }
    return false;
  }, [endSession, followStoredSession, signIn]);
  useRealtime(
    state.status === 'fulfilled' && state.user ? state.user.id : null,
    handleCurrentUserUpdated,
    handleServerDisconnect,
  );

  const setMode = useCallback((mode: Mode) => {
    writeMode(mode);
    setStoredMode(mode);
  }, []);

  const mode = effectiveMode(state.user, storedMode);

  const value = useMemo<Session>(
    () => ({ ...state, mode, setMode, signIn, signOut, revalidate }),
    [state, mode, setMode, signIn, signOut, revalidate],
  );

  return (
    <SessionContext.Provider value={value}>
      {state.status === 'pending' ? <FullScreenLoader /> : children}
    </SessionContext.Provider>
  );
}

/** The mode a user works in: the stored one for users with admin permission, else staff. */
export function effectiveMode(user: UserResponse | null, storedMode: Mode): Mode {
  return user && isAdmin(user.role) ? storedMode : 'staff';
}

/** The session of the app. */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession must be used inside SessionProvider');
  return session;
}

/** The signed-in user; only for screens behind the dashboard's sign-in guard. */
export function useCurrentUser(): UserResponse {
  const { user } = useSession();
  if (!user) throw new Error('useCurrentUser needs a signed-in user');
  return user;
}
