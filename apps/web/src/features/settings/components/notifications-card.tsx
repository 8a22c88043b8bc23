import { parseUserSettings } from '@imprest/domain/api/users.ts';
import { isAdmin } from '@imprest/domain/permissions.ts';
import { Alert, Card, Flex, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useCurrentUser, useSession } from '../../../lib/session.tsx';
import { useMailDelivery } from '../api/get-mail-delivery.ts';
import { useUpdateUserSettings } from '../api/update-user-settings.ts';

/** Spec §8: the settings could not be saved. */
const updateFailed = 'Failed to update settings';

/** Spec §2 Settings: the e-mail notifications toggle (on unless muted, spec §9). */
export function NotificationsCard() {
  const user = useCurrentUser();
  const { revalidate } = useSession();
  const update = useUpdateUserSettings();
  const stored = parseUserSettings(user.settings);
  // Shown at once; put back if the server refuses.
  const [isOn, setIsOn] = useState(!stored.mute_notification);
  // Admins learn whether the server sends e-mail at all (they alone may ask, docs/decisions/0037).
  const delivery = useMailDelivery({ enabled: isAdmin(user.role) }).data;

  function handleChange(checked: boolean) {
    setIsOn(checked);
    update.mutate(
      { userId: user.id, settings: { ...stored, mute_notification: !checked } },
      {
        onSuccess: () => void revalidate(),
        onError: () => setIsOn(!checked),
      },
    );
  }

  return (
    <Card title="Notifications" size="small">
      <Flex vertical gap={12}>
        <Flex justify="space-between" align="center" gap={16}>
          <label htmlFor="notifications-switch" style={{ minWidth: 0 }}>
            <Typography.Text strong>E-mail notifications</Typography.Text>
            <br />
            <Typography.Text type="secondary">
              Receive an e-mail when your requests and retirements move along, when something waits
              for your review, and when a delegation names you.
            </Typography.Text>
          </label>
          <Switch
            id="notifications-switch"
            checked={isOn}
            loading={update.isPending}
            onChange={handleChange}
            data-testid="notifications-switch"
          />
        </Flex>
        {delivery?.delivery === 'folder' ? (
          <Alert
            type="info"
            showIcon
            title="This server sends no e-mail yet"
            description={`SMTP_URL is not set, so each e-mail Imprest writes (invitations, password resets, notifications) goes to a file in ${delivery.folder} on the server instead.`}
            data-testid="mail-folder-notice"
          />
        ) : null}
        {update.isError ? (
          <Alert
            type="error"
            showIcon
            title={updateFailed}
            description={update.error.message}
            data-testid="settings-error"
          />
        ) : null}
      </Flex>
    </Card>
  );
}
