import { mailDeliveryResponse, type MailDeliveryResponse } from '@imprest/domain/api/settings.ts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

export const mailDeliveryQueryKey = ['settings', 'mail'] as const;

/**
 * GET settings/mail (admin): whether the server sends e-mail through SMTP or, without `SMTP_URL`,
 * writes each one to a file in its mail folder. An invitation's link reaches a new colleague only
 * through it, so the page that adds users says where it went.
 */
export function getMailDelivery(): Promise<MailDeliveryResponse> {
  return apiRequest('settings/mail', { schema: mailDeliveryResponse });
}

/**
 * How the server delivers e-mail; it changes only when the server is restarted with other
 * settings. `enabled`: false for a user who may not ask (staff).
 */
export function useMailDelivery({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: mailDeliveryQueryKey,
    queryFn: getMailDelivery,
    staleTime: 5 * 60_000,
    enabled,
  });
}
