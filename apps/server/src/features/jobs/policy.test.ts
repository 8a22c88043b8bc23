import { roles } from '@imprest/domain/enums.ts';
import { describe, expect, it } from 'vitest';
import { canRunLockJob } from './policy.ts';

describe('jobs policy', () => {
  it.each(roles.map((role) => [role, role === 'director'] as const))(
    '%s runs the lock job → %s',
    (role, expected) => {
      expect(canRunLockJob({ role })).toBe(expected);
    },
  );
});
