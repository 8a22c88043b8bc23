import { auditActions } from '@imprest/domain/audit.ts';
import { roles } from '@imprest/domain/enums.ts';
import { describe, expect, it } from 'vitest';
import { canReadAuditTrail, objectHistoryView } from './policy.ts';

const me = '00000000-0000-4000-8000-000000000001';
const someone = '00000000-0000-4000-8000-000000000002';
const objects = {
  'my account': { object_type: 'user', object_id: me },
  'another account': { object_type: 'user', object_id: someone },
  'a request': { object_type: 'request', object_id: someone },
  // A request's id that happens to be the caller's user id is still not their account.
  'a request with my id': { object_type: 'request', object_id: me },
  'a budget': { object_type: 'budget', object_id: someone },
} as const;
const authActions = [
  'auth.signed_in',
  'auth.sign_in_failed',
  'auth.password_reset',
  'auth.password_set',
  'auth.password_changed',
];

describe('audit policy', () => {
  it.each(roles.map((role) => [role] as const))('%s reads the whole trail', (role) => {
    expect(canReadAuditTrail({ role })).toBe(role === 'director');
  });

  // role × object → [sees auth.* events, sees ip and request id]
  it.each(
    roles.flatMap((role) =>
      Object.keys(objects).map((object) => [role, object as keyof typeof objects] as const),
    ),
  )('%s reading the history of %s', (role, object) => {
    const view = objectHistoryView({ id: me, role }, objects[object]);
    const isDirector = role === 'director';
    const seesAuth = isDirector || object === 'my account';
    const shown = auditActions.filter((action) => !view.hiddenActions.includes(action));
    expect([shown.some((action) => authActions.includes(action)), view.showsOrigin]).toEqual([
      seesAuth,
      isDirector,
    ]);
    // Every other action is always shown; auth.* are all hidden or all shown.
    expect(shown).toEqual(
      seesAuth ? [...auditActions] : auditActions.filter((action) => !authActions.includes(action)),
    );
  });
});
