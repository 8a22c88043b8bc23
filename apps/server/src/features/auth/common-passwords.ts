import { commonPasswordCount, passwordProblem } from '@imprest/domain/passwords.ts';
import { AppError } from '../../lib/errors.ts';

let common: Promise<ReadonlySet<string>> | undefined;

/**
 * The 10,000 most common passwords (decisions §8): the head of zxcvbn's ranked `passwords`
 * dictionary, read from the package rather than copied (docs/decisions/0010). Lower case. The
 * dictionary (about 14 MB) is loaded when a password is first checked, not at start (issue 13:
 * memory at idle; docs/decisions/0020).
 */
export function commonPasswords(): Promise<ReadonlySet<string>> {
  common ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) => new Set(dictionary['passwords-common'].slice(0, commonPasswordCount)),
  );
  return common;
}

/** Throws a 400 naming `path` when a new password is too short or too common. */
export async function assertPasswordAllowed(password: string, path = 'password'): Promise<void> {
  const problem = passwordProblem(password, await commonPasswords());
  if (problem)
    throw new AppError('bad_request', problem, { details: [{ path, message: problem }] });
}
