import { newUserRequest, type NewUserRequest } from './api/users.ts';
import { maxUsersPerImport } from './constants.ts';
import type { Role } from './enums.ts';
import { passwordProblem } from './passwords.ts';
import { isSuperAdmin, systemRoleFor } from './permissions.ts';

/** One problem of a batch of new users; `path` is `<row from 1>.<field>` (`3.email`). */
export type NewUserProblem = { path: string; message: string };

/** A checked new user, its system role made consistent with its position (decisions §3). */
export type NewUser = Omit<NewUserRequest, 'system_role'> & {
  system_role: ReturnType<typeof systemRoleFor>;
};

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/**
 * Checks a whole batch of `POST users` (issue 9: all or nothing): each row against the shared
 * schema, then the batch rules — an e-mail twice in the batch or already taken (case-insensitive),
 * the director position from anyone but the director (spec §5), common passwords when the caller
 * has the list, at most 10,000 rows. Every problem names its row from 1.
 */
export function newUsersProblems(
  rows: readonly unknown[],
  options: {
    actorRole: Role;
    takenEmails?: ReadonlySet<string>;
    commonPasswords?: ReadonlySet<string>;
  },
): { users: NewUser[]; problems: NewUserProblem[] } {
  if (rows.length > maxUsersPerImport) {
    return {
      users: [],
      problems: [
        {
          path: '',
          message: `At most ${maxUsersPerImport.toLocaleString('en-GB')} users can be added at once; this batch has ${rows.length.toLocaleString('en-GB')}.`,
        },
      ],
    };
  }
  const users: NewUser[] = [];
  const problems: NewUserProblem[] = [];
  const firstRowOf = new Map<string, number>();
  rows.forEach((input, index) => {
    const row = index + 1;
    const add = (field: string, message: string) =>
      problems.push({
        path: field ? `${row}.${field}` : `${row}`,
        message: `Row ${row}: ${message}`,
      });
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      add('', 'is not a user object.');
      return;
    }
    const parsed = newUserRequest.safeParse(input);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = issue.path.join('.');
        const message = lowerFirst(issue.message);
        // A missing field reads better by name than as zod's "expected string".
        const isMissing = issue.path.length === 1 && !(field in input);
        add(
          field,
          isMissing ? `${field} is required.` : `${message}${message.endsWith('.') ? '' : '.'}`,
        );
      }
      return;
    }
    const user = parsed.data;
    const email = user.email;
    const earlier = firstRowOf.get(email);
    if (earlier !== undefined) add('email', `e-mail ${email} is also on row ${earlier}.`);
    else firstRowOf.set(email, row);
    if (options.takenEmails?.has(email)) add('email', `e-mail ${email} is already taken.`);
    if (user.role === 'director' && !isSuperAdmin(options.actorRole)) {
      add('role', 'only the director can give the director position.');
    }
    if (user.password !== undefined) {
      const problem = passwordProblem(user.password, options.commonPasswords);
      if (problem) add('password', lowerFirst(problem));
    }
    users.push({ ...user, system_role: systemRoleFor(user.role) });
  });
  return { users, problems };
}

/** The one-sentence `error` of a refused batch: how many problems, and the first. */
export function newUsersSummary(problems: readonly NewUserProblem[]): string {
  const [first] = problems;
  if (!first) return '';
  const count = problems.length === 1 ? 'a problem' : `${problems.length} problems`;
  return `No users were added: the batch has ${count}. ${first.message}`;
}
