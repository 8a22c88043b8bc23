import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

export type SendResetLinkRequest = { email: string };

/** POST forgot-password: e-mails a reset link (spec §7). */
export async function sendResetLink(body: SendResetLinkRequest): Promise<void> {
  await apiRequest('forgot-password', { method: 'POST', body });
}

/** Forgot-password mutation (pending, fulfilled, rejected: spec §4). */
export function useSendResetLink() {
  return useMutation({ mutationFn: sendResetLink });
}
