import { z } from 'zod';
import { defaultPageSize, maxPageSize } from '../constants.ts';
import { passwordProblem } from '../passwords.ts';

/** Error body of every 4xx/5xx answer (decisions §2). */
export const errorResponse = z.object({
  error: z.string(),
  details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorResponse = z.infer<typeof errorResponse>;

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a text is a UUID (an id of ours), before it reaches a uuid column. */
export function isUuid(value: string): boolean {
  return uuidPattern.test(value);
}

/**
 * An id of ours sent in: a UUID in either letter case, read in lower case. PostgreSQL finds the
 * row either way but answers it in lower case, so an id compared as text (the caller's own, a
 * step of a chain, the audit trail's object ids) must be lower-case to match.
 */
export function uuidInput(message: string) {
  return z.uuid({ message }).transform((id) => id.toLowerCase());
}

/** Half of a surrogate pair without its other half. */
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Whether a text can be stored as it was sent: PostgreSQL text cannot hold a NUL byte (the query
 * fails), and a lone surrogate is not Unicode (the driver would store U+FFFD in its place).
 */
export function isStorableText(value: string): boolean {
  return !value.includes('\u0000') && !loneSurrogate.test(value);
}

export const unstorableTextMessage =
  'Text must not contain NUL bytes or broken Unicode characters (lone surrogates)';

/**
 * A string field whose value is stored or searched: refuses what `isStorableText` refuses, with a
 * message a person can act on. Chain as usual: `storableText().trim().min(1).max(200)`.
 */
export function storableText(message = unstorableTextMessage) {
  return z.string().refine(isStorableText, message);
}

/** `page` from 1 and `per_page` up to 100 (decisions §2); query strings arrive as text. */
export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(maxPageSize).default(defaultPageSize),
  search: storableText().trim().max(200).optional(),
});
export type PageQuery = z.infer<typeof pageQuery>;

export const idParam = z.object({ id: uuidInput('id must be a UUID') });

/**
 * Whether a text is `YYYY-MM-DD` naming a day the calendar has. `Date.parse` alone takes
 * 30 February and moves it to 2 March, so the day must come back unchanged.
 */
export function isCalendarDayText(value: string): boolean {
  // Year 0000 is no year of the calendar (1 BC precedes AD 1), and PostgreSQL refuses it.
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || value.startsWith('0000')) return false;
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().startsWith(value);
}

/** A trimmed, case-folded e-mail address. */
export const email = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: 'Enter a valid e-mail address' }).max(254));

export const isoDateTime = z.string();

/** Longest piece of a refused text that an error message quotes back. */
const quotedInputMax = 40;

/**
 * A refused input as an error message may name it: text quoted and cut short, a number or
 * boolean as it is, anything else by its kind. Never `String(input)`: a deeply nested array
 * overflows the stack on the way to a string, and a 900 KB text would come back in the answer.
 */
export function describeInput(input: unknown): string {
  if (typeof input === 'string') {
    const cut = input.length > quotedInputMax ? `${input.slice(0, quotedInputMax)}…` : input;
    return JSON.stringify(cut);
  }
  if (typeof input === 'number' || typeof input === 'boolean' || input === null) {
    return String(input);
  }
  if (Array.isArray(input)) return 'a list';
  if (input === undefined) return 'nothing';
  return `a${typeof input === 'object' ? 'n object' : ` ${typeof input}`}`;
}

/**
 * A new password as the web can check it: the length rule (decisions §8). The server also refuses
 * the 10,000 most common passwords (`passwordProblem` with its list, docs/decisions/0010).
 */
export const newPassword = z.string().superRefine((value, context) => {
  const problem = passwordProblem(value);
  if (problem) context.addIssue({ code: 'custom', message: problem });
});

/** How long a server keeps an Idempotency-Key's first answer (issue 14). */
export const idempotencyKeyLifetimeHours = 24;

/**
 * The optional `Idempotency-Key` header of the writes that create or decide something (issue 14):
 * a repeat with the same key and body gets the first answer back and changes nothing. Other
 * headers pass through untouched.
 */
export const idempotencyHeaders = z.looseObject({
  'idempotency-key': z
    .string()
    .regex(/^[\x21-\x7e]{1,255}$/, {
      message: 'Idempotency-Key must be 1 to 255 visible ASCII characters, such as a UUID',
    })
    .optional(),
});
