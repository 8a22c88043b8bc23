import { roles } from '@imprest/domain/enums.ts';
import { describe, expect, it } from 'vitest';
import { canReadApprovalMatrix, canReplaceApprovalMatrix } from './policy.ts';

describe('approval matrix policy', () => {
  it.each(roles.map((role) => [role, true, role === 'director'] as const))(
    '%s: read %s, replace %s',
    (role, read, replace) => {
      expect(canReadApprovalMatrix({ role })).toBe(read);
      expect(canReplaceApprovalMatrix({ role })).toBe(replace);
    },
  );
});
