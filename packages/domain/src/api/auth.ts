import { z } from 'zod';
import { minPasswordLength } from '../constants.ts';
import { email } from './common.ts';
import { userResponse } from './users.ts';

export const authenticateRequest = z.object({
  email,
  password: z.string().min(1, 'Password is required').max(1024),
});
export type AuthenticateRequest = z.infer<typeof authenticateRequest>;

export const authResponse = z.object({ token: z.string(), user: userResponse });
export type AuthResponse = z.infer<typeof authResponse>;

const commonPasswords = new Set([
  'password',
  'password1',
  'password123',
  '12345678',
  '123456789',
  '1234567890',
  'qwertyuiop',
  'qwerty123',
  'iloveyou',
  'admin123',
  'letmein1',
  'welcome1',
  'imprest1',
  '11111111',
  '00000000',
  'abcdefgh',
  'abcd1234',
]);

/** A new password: at least 8 characters and not a common one (decisions §8). */
export const newPassword = z
  .string()
  .min(minPasswordLength, `Password must be at least ${minPasswordLength} characters`)
  .max(1024)
  .refine((value) => !commonPasswords.has(value.toLowerCase()), 'Password is too common');

export const setupRequest = z.object({
  organization_name: z.string().trim().min(1, 'Organisation name is required').max(200),
  fullname: z.string().trim().min(1, 'Full name is required').max(200),
  email,
  password: newPassword,
});
export type SetupRequest = z.infer<typeof setupRequest>;

export const setupStatusResponse = z.object({ needs_setup: z.boolean() });
export type SetupStatusResponse = z.infer<typeof setupStatusResponse>;

export const forgotPasswordRequest = z.object({ email });
export type ForgotPasswordRequest = z.infer<typeof forgotPasswordRequest>;

export const resetPasswordRequest = z.object({
  token: z.string().min(1, 'The reset token is missing').max(200),
  email,
  password: newPassword,
});
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequest>;

export const messageResponse = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponse>;
