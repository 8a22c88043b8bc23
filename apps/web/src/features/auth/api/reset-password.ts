import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

export type ResetPasswordRequest = { token: string; email: string; password: string };

/** POST forgot-password/validate: sets a new password with the e-mailed token (spec §7). */
export async function resetPassword(body: ResetPasswordRequest): Promise<void> {
  await apiRequest('forgot-password/validate', { method: 'POST', body });
}

/** Reset mutation (pending, fulfilled, rejected: spec §4). */
export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
