import { errorResponse } from '@imprest/domain/api/common.ts';
import type { z } from 'zod';
import { readToken } from './storage.ts';

/** Every call goes under this base (spec §7). */
export const apiBase = '/api/v1';

/** Spec §7: any status other than these is an error carrying the response text. */
const okStatuses = new Set([200, 201, 204]);

/** A failed API call: the HTTP status and the server's one-sentence error (decisions §2). */
export class ApiError extends Error {
  readonly status: number;
  readonly details: { path: string; message: string }[];

  constructor(status: number, message: string, details: { path: string; message: string }[] = []) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.details = details;
  }
}

/** Whether an error is an ApiError with one of the given statuses. */
export function isApiError(error: unknown, ...statuses: number[]): error is ApiError {
  return error instanceof ApiError && (statuses.length === 0 || statuses.includes(error.status));
}

type QueryValue = string | number | boolean | null | undefined;

export type ApiRequestOptions<T> = {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  query?: Record<string, QueryValue>;
  signal?: AbortSignal;
  /** Parses the answer; without it the body is returned as `unknown`. */
  schema?: z.ZodType<T>;
  /**
   * A write that creates or decides something (issue 14): it carries one Idempotency-Key, and a
   * dropped connection or a gateway error is retried with that key, so the server makes the write
   * once however many tries reach it.
   */
  idempotent?: boolean;
  /** Set by `renewingToken`'s own call: its 401 is judged at once, not after itself. */
  renewsToken?: boolean;
  /**
   * The version (`ETag`) a replacement builds on, sent as `If-Match`: the server refuses it with 412
   * when someone else saved the document since (docs/decisions/0035).
   */
  ifMatch?: string | null;
};

/** Waits before each retry of an idempotent write; then the error stands. */
const retryDelaysMs = [500, 1500, 3500];

/** Statuses a load balancer answers while a server process restarts. */
const gatewayStatuses = new Set([502, 503, 504]);

/**
 * Keys of writes that got no answer the app can trust (the connection dropped through every retry,
 * a gateway or server error, a 409 such as "still being handled"), by what they sent. Sending the
 * same write again (the person presses Submit once more) is the same submission and reuses its key,
 * so the server makes it once however it ended the first time; any other answer forgets the key,
 * so a later identical write is a new one. Kept an hour, well inside the server's 24.
 */
const unansweredKeys = new Map<string, { key: string; at: number }>();
const unansweredKeyLifeMs = 60 * 60_000;

/** A read that has had no answer by then is given up (and retried by its query), not awaited for ever. */
const readTimeoutMs = 30_000;
/** Shown when a read had no answer in time. */
const slowReadMessage = 'The server took too long to answer. Check your connection and try again.';

/**
 * The signal of a read: the caller's, and a time limit, so a connection that died without a word
 * (a network dropped mid-call, a stuck proxy) fails and is retried rather than spinning for ever.
 */
function readSignal(signal: AbortSignal | undefined): AbortSignal | undefined {
  if (typeof AbortSignal.timeout !== 'function' || typeof AbortSignal.any !== 'function') {
    return signal;
  }
  const limit = AbortSignal.timeout(readTimeoutMs);
  return signal ? AbortSignal.any([signal, limit]) : limit;
}

/** A read's time limit in words; any other failure as it is. */
function inWords(error: unknown): unknown {
  return error instanceof DOMException && error.name === 'TimeoutError'
    ? new Error(slowReadMessage, { cause: error })
    : error;
}

/** Shown when no answer came at all: a read can simply be tried again. */
const unreachableMessage = 'The server could not be reached. Check your connection and try again.';
/** Shown when a write got no answer: it may have been made, and sending it again is safe. */
const unansweredWriteMessage =
  'The server could not be reached, so this may or may not have been saved. Check your connection and send it again: it will not be made twice.';

/** The key for this write: the unanswered one of the same write, or a new one. */
function keyFor(write: string): string {
  const now = Date.now();
  for (const [sent, entry] of unansweredKeys) {
    if (now - entry.at > unansweredKeyLifeMs) unansweredKeys.delete(sent);
  }
  return unansweredKeys.get(write)?.key ?? newIdempotencyKey();
}

/** 128 random bits in hex; crypto.getRandomValues, unlike randomUUID, works on plain http too. */
function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}

/** fetch, retried for an idempotent write while the connection drops or a gateway fails. */
async function fetchWithRetries(
  url: string,
  init: RequestInit,
  isIdempotent: boolean,
): Promise<Response> {
  for (let attempt = 0; ; attempt += 1) {
    const delay = isIdempotent ? retryDelaysMs[attempt] : undefined;
    try {
      const response = await fetch(url, init);
      if (delay === undefined || !gatewayStatuses.has(response.status)) return response;
    } catch (error) {
      // fetch rejects with a TypeError when the connection fails; an abort is the caller's wish.
      if (delay === undefined || !(error instanceof TypeError) || init.signal?.aborted) throw error;
    }
    await wait(delay, init.signal ?? undefined);
  }
}

let handleUnauthorized: (() => void) | null = null;

/**
 * The Web Lock a token renewal holds across the browser's tabs (none where the browser offers no
 * Web Locks, such as a page served over plain HTTP to another host: then only this tab waits).
 */
const renewalLock = 'imprest.token-renewal';

/** Calls under way that hand this session a new token (a password change ends the old one). */
const tokenRenewals = new Set<Promise<unknown>>();

/**
 * Runs a call whose answer replaces this session's token and stores it before settling. Until it
 * settles, a 401 elsewhere (a socket the server closed, a list fetched with the old token) waits
 * for it and is then judged against the newest token, so the renewal is never taken for the end.
 */
export function renewingToken<T>(call: () => Promise<T>): Promise<T> {
  // The browser's other tabs share the token (local storage): they wait for the renewal too.
  const pending: Promise<T> = navigator.locks
    ? navigator.locks.request(renewalLock, call).then((answer) => answer)
    : call();
  tokenRenewals.add(pending);
  pending.then(
    () => tokenRenewals.delete(pending),
    () => tokenRenewals.delete(pending),
  );
  return pending;
}

/** Resolves once no call that renews the token is under way, in this tab or another. */
export async function tokenRenewalsSettled(): Promise<void> {
  while (tokenRenewals.size > 0) await Promise.allSettled([...tokenRenewals]);
  // A renewal in another tab holds the lock from before its call is sent until its token is
  // stored; the server closes this tab's socket, or refuses the old token, only in between.
  await navigator.locks?.request(renewalLock, { mode: 'shared' }, () => undefined);
}

/** Called when a request that carried the current token gets 401: the session is over (spec §7). */
export function setUnauthorizedHandler(handler: (() => void) | null): void {
  handleUnauthorized = handler;
}

function buildUrl(path: string, query: Record<string, QueryValue> | undefined): string {
  const url = `${apiBase}/${path.replace(/^\/+/, '')}`;
  if (!query) return url;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `${url}?${text}` : url;
}

/** Whether an answer's text is a web page (a gateway's or proxy's own error page), not a message. */
function isPage(text: string): boolean {
  return /^\s*</.test(text);
}

/**
 * The one sentence a person reads for a failed call (decisions §2): the API's `{error}`, else the
 * response text (spec §7); a gateway's or proxy's HTML page is named by its status instead of shown
 * as markup.
 */
function errorFrom(statusCode: number, text: string, fallback: string): ApiError {
  try {
    const parsed = errorResponse.safeParse(JSON.parse(text));
    if (parsed.success) return new ApiError(statusCode, parsed.data.error, parsed.data.details);
  } catch {
    // Not JSON: the response text itself is the message (spec §7).
  }
  if (isPage(text)) {
    return new ApiError(
      statusCode,
      statusCode >= 500
        ? `The server is unavailable right now (${statusCode}). Try again in a moment.`
        : `The server refused this call (${statusCode}).`,
    );
  }
  return new ApiError(statusCode, text.trim() || fallback);
}

/** Calls the API with JSON and both token headers (spec §7); throws ApiError on failure. */
export async function apiRequest<T = unknown>(
  path: string,
  options: ApiRequestOptions<T> = {},
): Promise<T> {
  return (await apiCall(path, options)).data;
}

/** A document and its version (`ETag`), for a form that replaces it whole (docs/decisions/0035). */
export type Versioned<T> = { data: T; version: string | null };

/** `apiRequest` that also answers the document's version, the response's `ETag`. */
export async function apiRequestVersioned<T = unknown>(
  path: string,
  options: ApiRequestOptions<T> = {},
): Promise<Versioned<T>> {
  const { data, response } = await apiCall(path, options);
  return { data, version: response.headers.get('etag') };
}

async function apiCall<T>(
  path: string,
  options: ApiRequestOptions<T>,
): Promise<{ data: T; response: Response }> {
  const token = readToken();
  const headers = new Headers({ Accept: 'application/json' });
  if (token) {
    headers.set('Authorization', `Bearer ${token}`);
    headers.set('token', token);
  }
  const hasBody = options.body !== undefined;
  if (hasBody) headers.set('Content-Type', 'application/json');
  const isIdempotent = options.idempotent === true;
  const url = buildUrl(path, options.query);
  const method = options.method ?? 'GET';
  const body = hasBody ? JSON.stringify(options.body) : undefined;
  const write = `${method} ${url} ${body ?? ''}`;
  const key = isIdempotent ? keyFor(write) : null;
  if (key) headers.set('Idempotency-Key', key);
  if (options.ifMatch) headers.set('If-Match', options.ifMatch);

  // Writes are never cut short: one may be under way on the server, and its answer matters.
  const signal = method === 'GET' ? readSignal(options.signal) : options.signal;
  let response: Response;
  try {
    response = await fetchWithRetries(url, { method, headers, body, signal }, isIdempotent);
  } catch (error) {
    if (key) unansweredKeys.set(write, { key, at: Date.now() });
    // The browser's own words ("Failed to fetch") tell a person nothing they can act on.
    if (error instanceof TypeError && !options.signal?.aborted) {
      throw new Error(key ? unansweredWriteMessage : unreachableMessage, { cause: error });
    }
    throw inWords(error);
  }
  if (key) {
    if (response.status >= 500 || response.status === 409) {
      unansweredKeys.set(write, { key, at: Date.now() });
    } else unansweredKeys.delete(write);
  }

  // The time limit runs on while the answer's body arrives.
  const text =
    response.status === 204
      ? ''
      : await response.text().catch((error: unknown) => {
          throw inWords(error);
        });
  if (!okStatuses.has(response.status)) {
    // A token replaced meanwhile (a password change hands out a new one) is not the session's end.
    if (response.status === 401 && token) {
      if (!options.renewsToken) await tokenRenewalsSettled();
      if (token === readToken()) handleUnauthorized?.();
    }
    throw errorFrom(response.status, text, response.statusText || `HTTP ${response.status}`);
  }

  let data: unknown = undefined;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  }
  if (!options.schema) return { data: data as T, response };
  const parsed = options.schema.safeParse(data);
  if (!parsed.success) {
    throw new ApiError(response.status, 'The server sent an answer this app cannot read.');
  }
  return { data: parsed.data, response };
}
