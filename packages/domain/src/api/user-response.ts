import { z } from 'zod';
import { departments, roles, systemRoles } from '../enums.ts';
import { isoDateTime } from './common.ts';

// A module of its own, apart from the users API's requests (users.ts), because every signed-in
// answer carries a user: the sign-in page needs this schema and none of the others, and building
// zod schemas is start-up time on a phone (issue 13).

/** Who locked a user: finance by hand or the midnight job (decisions §4). */
export const lockedByValues = ['finance', 'system'] as const;

/** A user as every API answer presents it (spec §3; User view: created, modified, restricted). */
export const userResponse = z.object({
  id: z.uuid(),
  fullname: z.string(),
  email: z.string(),
  department: z.enum(departments),
  role: z.enum(roles),
  system_role: z.enum(systemRoles),
  organization_id: z.uuid(),
  organization_name: z.string(),
  is_locked: z.boolean(),
  lock_reason: z.string().nullable(),
  locked_by: z.enum(lockedByValues).nullable(),
  phone_number: z.string().nullable(),
  settings: z.string(),
  created_at: isoDateTime,
  modified_at: isoDateTime,
  /** Only for the director (decisions §9); left out for everyone else. */
  last_logged_in: isoDateTime.nullable().optional(),
});
export type UserResponse = z.infer<typeof userResponse>;
