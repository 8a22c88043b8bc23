/** SQLSTATE codes that services turn into a 409 instead of a 500. */
export const sqlState = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
} as const;

/**
 * SQLSTATE codes of values PostgreSQL cannot take, which only input can cause: the error handler
 * answers 400 with the message, not 500. The validation layer should refuse such input first
 * (`storableText` in packages/domain/src/api/common.ts); this is the net under it for every field
 * and query string that does not use it yet.
 */
export const badInputSqlStates: Record<string, string> = {
  // A NUL byte (or text that is not UTF-8): PostgreSQL text cannot hold it.
  '22021': 'The input contains a character that cannot be stored, such as a NUL byte.',
  '22P05': 'The input contains a character that cannot be stored.',
  '22P02': 'The input has a value of the wrong form.',
  '22003': 'The input has a number that is out of range.',
  '22007': 'The input has a date or time that is not valid.',
  '22008': 'The input has a date or time that is out of range.',
};

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
