import { minPasswordLength } from './constants.ts';

/** How many of the most common passwords a new password may not be (decisions §8). */
export const commonPasswordCount = 10_000;

export const passwordMessages = {
  tooShort: `The password must be at least ${minPasswordLength} characters.`,
  tooLong: 'The password must be at most 1,024 characters.',
  /**
   * Written when read: the first number formatted for a locale loads the browser's locale data,
   * 48 ms of the sign-in page's start-up when this module was evaluated (issue 13), and only the
   * server, which has the list, ever says it.
   */
  get tooCommon(): string {
    return `This password is among the ${commonPasswordCount.toLocaleString('en-GB')} most common passwords; choose another.`;
  },
} as const;

/**
 * What is wrong with a new password, or null (decisions §8: at least 8 characters, not a common
 * one). The list of common passwords is data the server ships (docs/decisions/0010); the web,
 * which does not download it, passes nothing and checks the length only.
 */
export function passwordProblem(
  password: string,
  commonPasswords: ReadonlySet<string> = new Set(),
): string | null {
  if (password.length < minPasswordLength) return passwordMessages.tooShort;
  if (password.length > 1024) return passwordMessages.tooLong;
  if (commonPasswords.has(password.toLowerCase())) return passwordMessages.tooCommon;
  return null;
}
