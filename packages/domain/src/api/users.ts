import { z } from 'zod';
import { maxUsersPerImport } from '../constants.ts';
import { departments, roles, systemRoles } from '../enums.ts';
import {
  describeInput,
  email,
  idParam,
  isStorableText,
  newPassword,
  pageQuery,
  unstorableTextMessage,
  uuidInput,
} from './common.ts';

import { authResponse } from './auth.ts';
import { userResponse } from './user-response.ts';

export { lockedByValues, userResponse, type UserResponse } from './user-response.ts';

/** Notification settings held as JSON text in `settings` (spec §3). */
export const userSettings = z.object({ mute_notification: z.boolean().default(false) });
export type UserSettings = z.infer<typeof userSettings>;

/** Reads the settings text; anything unreadable falls back to the defaults (notifications on). */
export function parseUserSettings(text: string | null | undefined): UserSettings {
  try {
    return userSettings.parse(JSON.parse(text ?? '{}'));
  } catch {
    return { mute_notification: false };
  }
}

/** `PUT users/settings`: the settings travel as JSON text (decisions §8). */
export const updateUserSettingsRequest = z.object({
  user_id: uuidInput('user_id must be a UUID'),
  settings: z.string().refine((text) => {
    try {
      return userSettings.strict().safeParse(JSON.parse(text)).success;
    } catch {
      return false;
    }
  }, 'settings must be JSON text such as {"mute_notification":true}'),
});
export type UpdateUserSettingsRequest = z.infer<typeof updateUserSettingsRequest>;

export const userEnvelopeResponse = z.object({ user: userResponse });
export type UserEnvelopeResponse = z.infer<typeof userEnvelopeResponse>;

/** `POST users/restrict` (decisions §8): finance locks (`true`) or unlocks (`false`) a user's requests. */
export const restrictUserRequest = z.object({
  user_id: uuidInput('user_id must be the UUID of a user'),
  lock_status: z.boolean({ message: 'lock_status must be true or false' }),
});
export type RestrictUserRequest = z.infer<typeof restrictUserRequest>;

// Field schemas shared by POST users and PUT users; messages read after "Row 3: ".
export const userFullname = z
  .string({ message: 'full name is required' })
  .refine(isStorableText, unstorableTextMessage)
  .trim()
  .min(1, 'full name is required')
  .max(200, 'full name is too long (at most 200 characters)');
export const userDepartment = z.enum(departments, {
  error: (issue) =>
    `unknown department ${describeInput(issue.input)}; choose one of: ${departments.join(', ')}`,
});
export const userRole = z.enum(roles, {
  error: (issue) =>
    `unknown role ${describeInput(issue.input)}; choose one of: ${roles.join(', ')}`,
});
export const userSystemRole = z.enum(systemRoles, {
  error: (issue) =>
    `unknown system role ${describeInput(issue.input)}; choose one of: ${systemRoles.join(', ')}`,
});
const phoneDigits = z
  .string({ message: 'phone number must be text of digits' })
  .trim()
  .regex(/^\d{0,20}$/, 'phone number must be digits only (at most 20)');
/** Digits only (spec §5 trims it); empty or left out means none. */
export const userPhoneNumber = phoneDigits.nullish().transform((value) => value || null);
/**
 * A change of phone number (`PUT users`): empty or null clears it, and left out it stays left
 * out, so the stored number is kept (zod runs a transform for a missing key too).
 */
export const userPhoneNumberChange = phoneDigits
  .nullish()
  .transform((value) => (value === undefined ? undefined : value || null));

/**
 * One user of `POST users` (spec §3 create payload; decisions §8: password optional — without one
 * the user is invited by e-mail). `system_role` is accepted, but the server keeps it consistent with
 * `role` (decisions §3).
 */
export const newUserRequest = z.object({
  fullname: userFullname,
  email,
  department: userDepartment,
  role: userRole,
  system_role: userSystemRole.optional(),
  phone_number: userPhoneNumber,
  password: newPassword.optional(),
});
export type NewUserRequest = z.infer<typeof newUserRequest>;

/**
 * `POST users` (spec §7: an array of user objects; one object is accepted too). Rows are checked
 * one by one by the server (`newUsersProblems`) so that each problem names its row from 1:
 * `{path: "3.email", message: "Row 3: e-mail jane@x.org is already taken."}`.
 */
export const createUsersRequest = z.union(
  [
    z
      .array(z.unknown())
      .min(1, 'Send at least one user.')
      // The row count is checked with a clear message by `newUsersProblems`; this bound only
      // keeps absurd bodies out.
      .max(maxUsersPerImport * 2),
    z.record(z.string(), z.unknown()),
  ],
  { message: 'Send a user object or an array of user objects.' },
);
export type CreateUsersRequest = z.infer<typeof createUsersRequest>;

export const usersResponse = z.object({ users: z.array(userResponse) });
export type UsersResponse = z.infer<typeof usersResponse>;

export const userListDepartments = ['all', ...departments] as const;
export const userListRoles = ['all', ...roles] as const;

/** `GET users/department/{department}/{role}`: a department or 'all', a role or 'all'. */
export const userListParams = z.object({
  department: z.enum(userListDepartments, {
    message: `department must be 'all' or one of: ${departments.join(', ')}`,
  }),
  role: z.enum(userListRoles, { message: `role must be 'all' or one of: ${roles.join(', ')}` }),
});
export type UserListParams = z.infer<typeof userListParams>;

/** `page`, `per_page` (10 by default, at most 100) and `search` (name or e-mail). */
export const userListQuery = pageQuery;
export type UserListQuery = z.infer<typeof userListQuery>;

/** Spec §3 list response: users plus total, per_page, page. */
export const userListResponse = z.object({
  users: z.array(userResponse),
  total: z.number().int(),
  per_page: z.number().int(),
  page: z.number().int(),
});
export type UserListResponse = z.infer<typeof userListResponse>;

/** `GET users/{id}`. */
export const userIdParam = idParam;

/**
 * `PUT users` (spec §7). Fields left out keep their value. Decisions §9: every user changes their
 * own phone; an admin changes another user's phone, and the e-mail of someone holding no
 * permission the admin lacks (docs/decisions/0033); only the director changes fullname,
 * department, role and system_role (sending them unchanged is fine).
 */
export const updateUserRequest = z.object({
  user_id: uuidInput('user_id must be the UUID of a user'),
  fullname: userFullname.optional(),
  email: email.optional(),
  department: userDepartment.optional(),
  role: userRole.optional(),
  system_role: userSystemRole.optional(),
  phone_number: userPhoneNumberChange,
});
export type UpdateUserRequest = z.infer<typeof updateUserRequest>;

/** `DELETE users/{userId}`. */
export const deleteUserParams = z.object({
  userId: uuidInput('userId must be the UUID of a user'),
});

/**
 * `DELETE users/{userId}` answer: the user is always deactivated, never erased, so history stays
 * whole (docs/decisions/0010); `deactivated` is therefore always true.
 */
export const deleteUserResponse = z.object({ user_id: z.uuid(), deactivated: z.boolean() });
export type DeleteUserResponse = z.infer<typeof deleteUserResponse>;

/** `PUT users/password`: one's own password, the current one required. */
export const changePasswordRequest = z.object({
  current_password: z
    .string({ message: 'Enter your current password' })
    .min(1, 'Enter your current password')
    .max(1024),
  new_password: newPassword,
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequest>;

/**
 * Changing the password ends every other session (docs/decisions/0010), so the answer carries a
 * fresh token for this one: the answer of sign-in.
 */
export const changePasswordResponse = authResponse;
export type ChangePasswordResponse = z.infer<typeof changePasswordResponse>;
