import { isSuperAdmin } from '@imprest/domain/permissions.ts';
import { Alert, Card, Flex, Radio, Typography } from 'antd';
import { useState } from 'react';
import { SuccessPanel } from '../../../components/success-panel.tsx';
import { useCurrentUser } from '../../../lib/session.tsx';
import { useGoBack } from '../../../lib/use-go-back.ts';
import { useIsMobile } from '../../../lib/use-media-query.ts';
import { useOneAtATime } from '../../../lib/use-one-at-a-time.ts';
import { paths } from '../../../paths.ts';
import { useCreateUsers } from '../api/create-users.ts';
import { useMailDelivery } from '../../settings/api/get-mail-delivery.ts';
import { AdminOnly } from '../components/admin-only.tsx';
import { MultipleUsers } from '../components/multiple-users.tsx';
import { SingleUserForm } from '../components/single-user-form.tsx';
import {
  createUserFailed,
  invitationSent,
  userAdded,
  usersAdded,
} from '../components/user-messages.ts';

/** Spec §3: the add-user modes. */
type AddUserMode = 'single' | 'multiple';

const viewUsers = { label: 'View Users', href: paths.dashboard.users.getHref() };

function NewUsers() {
  const user = useCurrentUser();
  const isMobile = useIsMobile();
  const goBack = useGoBack(paths.dashboard.users.getHref());
  const [mode, setMode] = useState<AddUserMode>('single');
  const [added, setAdded] = useState<string | null>(null);
  const create = useCreateUsers();
  const createOnce = useOneAtATime(create);
  // Asked for as the page opens, so the answer is here when a user has been added.
  const { data: delivery } = useMailDelivery();

  if (added !== null) {
    return <SuccessPanel title={userAdded} subTitle={added} primary={viewUsers} />;
  }

  return (
    <Flex vertical gap={16} style={{ maxWidth: 1100 }}>
      <Card size={isMobile ? 'small' : 'medium'}>
        <Flex gap={16} align="center" wrap>
          <Typography.Text strong id="add-user-mode">
            How many users do you want to add?
          </Typography.Text>
          <Radio.Group
            aria-labelledby="add-user-mode"
            optionType="button"
            buttonStyle="solid"
            value={mode}
            onChange={(event) => setMode(event.target.value as AddUserMode)}
            options={[
              { label: 'Single', value: 'single' },
              { label: 'Multiple', value: 'multiple' },
            ]}
          />
        </Flex>
      </Card>
      {/* Both stay mounted: a look at Single keeps the CSV read under Multiple, and its edits. */}
      <div hidden={mode !== 'single'}>
        <SingleUserForm
          canGiveDirector={isSuperAdmin(user.role)}
          isSaving={create.isPending}
          alert={
            create.isError ? (
              <Alert
                type="error"
                showIcon
                title={`${createUserFailed} ${create.error.message}`}
                data-testid="form-error"
              />
            ) : null
          }
          onSubmit={(newUser) =>
            createOnce([newUser], {
              onSuccess: () =>
                setAdded(
                  newUser.password
                    ? `${newUser.fullname} can now sign in with the temporary password.`
                    : invitationSent(newUser.email, delivery),
                ),
            })
          }
          onCancel={goBack}
        />
      </div>
      <div hidden={mode !== 'multiple'}>
        <MultipleUsers
          onAdded={(count) => setAdded(usersAdded(count, delivery))}
          onCancel={goBack}
        />
      </div>
    </Flex>
  );
}

/** Route /dashboard/new-users (spec §2 New users): one user by form, or many from a CSV; admin only. */
export function NewUsersPage() {
  return (
    <AdminOnly>
      <NewUsers />
    </AdminOnly>
  );
}
