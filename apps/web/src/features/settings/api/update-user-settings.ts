import type { UserSettings } from '@imprest/domain/api/users.ts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

type UpdateUserSettingsInput = { userId: string; settings: UserSettings };

/** PUT users/settings {user_id, settings}: the settings travel as JSON text (decisions §8). */
export function updateUserSettings({
  userId,
  settings,
}: UpdateUserSettingsInput): Promise<unknown> {
  return apiRequest('users/settings', {
    method: 'PUT',
    body: { user_id: userId, settings: JSON.stringify(settings) },
  });
}

/** Mute or unmute e-mail notifications. */
export function useUpdateUserSettings() {
  return useMutation({ mutationFn: updateUserSettings });
}
