import { commonPasswordCount, passwordProblem } from '@imprest/domain/passwords.ts';
import { dictionary } from '@zxcvbn-ts/language-common';
import { AppError } from '../../lib/errors.ts';

let common: ReadonlySet<string> | undefined;

/**
 * The 10,000 most common passwords (decisions §8): the head of zxcvbn's ranked `passwords`
 * dictionary, read from the package rather than copied (docs/decisions/0010). Lower case.
 */
export function commonPasswords(): ReadonlySet<string> {
  common ??= new Set(dictionary['passwords-common'].slice(0, commonPasswordCount));
  return common;
}

/** Throws a 400 naming `path` when a new password is too short or too common. */
export function assertPasswordAllowed(password: string, path = 'password'): void {
  const problem = passwordProblem(password, commonPasswords());
  if (problem)
    throw new AppError('bad_request', problem, { details: [{ path, message: problem }] });
}
