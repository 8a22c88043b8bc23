import { z } from 'zod';
import { email, newPassword, storableText } from './common.ts';
import { userResponse } from './user-response.ts';

export const authenticateRequest = z.object({
  email,
  password: z.string().min(1, 'Password is required').max(1024),
});
export type AuthenticateRequest = z.infer<typeof authenticateRequest>;

export const authResponse = z.object({
  token: z.string(),
  user: userResponse,
  /**
   * The organisation's time zone (ORG_TIMEZONE), whose calendar day is "today" for every date
   * rule (docs/decisions/0004): the web's date pickers and warnings read their today in it.
   */
  time_zone: z.string(),
});
export type AuthResponse = z.infer<typeof authResponse>;

export { newPassword };

export const setupRequest = z.object({
  organization_name: storableText().trim().min(1, 'Organisation name is required').max(200),
  fullname: storableText().trim().min(1, 'Full name is required').max(200),
  email,
  password: newPassword,
});
export type SetupRequest = z.infer<typeof setupRequest>;

export const setupStatusResponse = z.object({ needs_setup: z.boolean() });
export type SetupStatusResponse = z.infer<typeof setupStatusResponse>;

export const forgotPasswordRequest = z.object({ email });
export type ForgotPasswordRequest = z.infer<typeof forgotPasswordRequest>;

export const resetPasswordRequest = z.object({
  token: storableText().min(1, 'The reset token is missing').max(200),
  email,
  password: newPassword,
});
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequest>;

export const messageResponse = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponse>;
