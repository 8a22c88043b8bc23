import { describe, expect, it } from 'vitest';
import { newUsersProblems, newUsersSummary } from './users.ts';

const row = (n: number, extra: object = {}) => ({
  fullname: ` Person ${n} `,
  email: ` Person${n}@Example.org `,
  department: 'it',
  role: 'staff',
  ...extra,
});

describe('newUsersProblems (issue 9: all or nothing, rows from 1)', () => {
  it('trims, lower-cases e-mails and derives system_role from the position', () => {
    const { users, problems } = newUsersProblems(
      [row(1, { role: 'finance_officer', system_role: 'staff', phone_number: ' 0712 ' }), row(2)],
      { actorRole: 'admin' },
    );
    expect(problems).toEqual([]);
    expect(users[0]).toMatchObject({
      fullname: 'Person 1',
      email: 'person1@example.org',
      system_role: 'admin',
      phone_number: '0712',
    });
    expect(users[1]).toMatchObject({ system_role: 'staff', phone_number: null });
  });

  it.each([
    [
      'a duplicate in the batch',
      [row(1), row(1)],
      {},
      '2.email',
      'Row 2: e-mail person1@example.org is also on row 1.',
    ],
    [
      'a taken e-mail',
      [row(1)],
      { takenEmails: new Set(['person1@example.org']) },
      '1.email',
      'Row 1: e-mail person1@example.org is already taken.',
    ],
    [
      'a director from an admin',
      [row(1, { role: 'director' })],
      {},
      '1.role',
      'Row 1: only the director can give the director position.',
    ],
    [
      'a malformed e-mail',
      [row(1, { email: 'jane' })],
      {},
      '1.email',
      'Row 1: enter a valid e-mail address.',
    ],
    [
      'a missing department',
      [{ fullname: 'A', email: 'a@b.org', role: 'staff' }],
      {},
      '1.department',
      'Row 1: department is required.',
    ],
    [
      'a common password',
      [row(1, { password: 'password1' })],
      { commonPasswords: new Set(['password1']) },
      '1.password',
      'Row 1: this password is among the 10,000 most common passwords; choose another.',
    ],
    ['not an object', [null], {}, '1', 'Row 1: is not a user object.'],
  ])('names %s', (_name, rows, extra, path, message) => {
    const { problems } = newUsersProblems(rows, { actorRole: 'admin', ...extra });
    expect(problems).toEqual([{ path, message }]);
  });

  it('lets the director give the director position', () => {
    expect(
      newUsersProblems([row(1, { role: 'director' })], { actorRole: 'director' }).problems,
    ).toEqual([]);
  });

  it('refuses more than 10,000 rows at once', () => {
    const rows = Array.from({ length: 10_001 }, (_, n) => row(n));
    const { problems } = newUsersProblems(rows, { actorRole: 'director' });
    expect(newUsersSummary(problems)).toBe(
      'No users were added: the batch has a problem. At most 10,000 users can be added at once; this batch has 10,001.',
    );
  });
});
