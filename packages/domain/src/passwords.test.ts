import { describe, expect, it } from 'vitest';
import { passwordMessages, passwordProblem } from './passwords.ts';

const common = new Set(['password1', 'qwerty123']);

describe('passwordProblem (decisions §8)', () => {
  it.each([
    ['', passwordMessages.tooShort],
    ['seven77', passwordMessages.tooShort],
    ['eight888', null],
    ['Password1', passwordMessages.tooCommon],
    ['QWERTY123', passwordMessages.tooCommon],
    ['a sound passphrase', null],
    ['x'.repeat(1025), passwordMessages.tooLong],
  ])('%j → %s', (password, expected) => {
    expect(passwordProblem(password, common)).toBe(expected);
  });

  it('checks only the length without a list (the web)', () => {
    expect(passwordProblem('password1')).toBeNull();
    expect(passwordMessages.tooCommon).toBe(
      'This password is among the 10,000 most common passwords; choose another.',
    );
  });
});
