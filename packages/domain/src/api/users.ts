import { z } from 'zod';
import { departments, roles, systemRoles } from '../enums.ts';
import { isoDateTime } from './common.ts';

/** A user as every API answer presents it (spec §3). */
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
  phone_number: z.string().nullable(),
  settings: z.string(),
  created_at: isoDateTime,
  modified_at: isoDateTime,
  last_logged_in: isoDateTime.nullable().optional(),
});
export type UserResponse = z.infer<typeof userResponse>;

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
  user_id: z.uuid({ message: 'user_id must be a UUID' }),
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

/** `POST users/restrict` (decisions §8): finance locks (`true`) or unlocks (`false`) a user's requests. */
export const restrictUserRequest = z.object({
  user_id: z.uuid({ message: 'user_id must be the UUID of a user' }),
  lock_status: z.boolean({ message: 'lock_status must be true or false' }),
});
export type RestrictUserRequest = z.infer<typeof restrictUserRequest>;
