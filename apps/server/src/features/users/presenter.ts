import type { UserResponse } from '@imprest/domain/api/users.ts';
import type { Department, Role, SystemRole } from '@imprest/domain/enums.ts';
import { iso, isoRequired } from '../../lib/time.ts';
import type { UserProfile } from './queries.ts';

/** Builds the API user object; `last_logged_in` only for viewers allowed to see it (spec §6). */
export function presentUser(
  row: UserProfile,
  options: { showLastLoggedIn: boolean },
): UserResponse {
  return {
    id: row.id,
    fullname: row.fullname,
    email: row.email,
    department: row.department as Department,
    role: row.role as Role,
    system_role: row.system_role as SystemRole,
    organization_id: row.organization_id,
    organization_name: row.organization_name,
    is_locked: row.is_locked,
    lock_reason: row.lock_reason,
    locked_by: row.locked_by === 'finance' || row.locked_by === 'system' ? row.locked_by : null,
    phone_number: row.phone_number,
    settings: row.settings,
    created_at: isoRequired(row.created_at),
    modified_at: isoRequired(row.modified_at),
    ...(options.showLastLoggedIn ? { last_logged_in: iso(row.last_logged_in) } : {}),
  };
}
