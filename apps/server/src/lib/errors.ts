/** Error codes a service may throw; the error handler maps each to one HTTP status. */
export const errorStatus = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  precondition_failed: 412,
  unprocessable: 422,
  too_many_requests: 429,
} as const;
export type ErrorCode = keyof typeof errorStatus;

/** A failure a person can act on; its message goes to the client as `{error}`. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: { path: string; message: string }[] | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: {
      details?: { path: string; message: string }[];
      headers?: Record<string, string>;
    } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = options.details;
    this.headers = options.headers;
  }
}
