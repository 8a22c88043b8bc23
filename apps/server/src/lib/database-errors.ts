/** SQLSTATE codes that services turn into a 409 instead of a 500. */
export const sqlState = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
} as const;

/**
 * The SQLSTATE of a failed query, or undefined. Drizzle wraps the node-postgres error in
 * DrizzleQueryError, so the code sits on the error or on one of its causes.
 */
export function sqlStateOf(error: unknown): string | undefined {
  for (let current = error; current instanceof Error; current = current.cause) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}
