import { LockOutlined, UnlockOutlined } from '@ant-design/icons';
import type { UserResponse } from '@imprest/domain/api/users.ts';
import { Alert, Button, Card, Flex, Typography } from 'antd';
import { useOneAtATime } from '../../../lib/use-one-at-a-time.ts';
import { useRestrictUser } from '../api/restrict-user.ts';
import { restrictUserFailed } from './user-messages.ts';

type RestrictPanelProps = { user: UserResponse };

/** Spec §2 User view: finance restricts or unrestricts a user's requests. */
export function RestrictPanel({ user }: RestrictPanelProps) {
  const restrict = useRestrictUser();
  const setLock = useOneAtATime(restrict);
  const isLocked = user.is_locked;

  return (
    <Card title="Restrict Requests" size="small" data-testid="restrict-panel">
      <Flex vertical gap={12}>
        <Typography.Text type="secondary">
          {isLocked
            ? `${user.fullname} can not submit new requests or edit existing ones.${user.lock_reason ? ` Reason: ${user.lock_reason}` : ''}`
            : `${user.fullname} may submit requests. Restricting stops new requests and edits until lifted.`}
        </Typography.Text>
        {restrict.isError ? (
          <Alert
            type="error"
            showIcon
            title={restrictUserFailed}
            description={restrict.error.message}
            data-testid="restrict-error"
          />
        ) : null}
        <div>
          <Button
            danger={!isLocked}
            icon={isLocked ? <UnlockOutlined /> : <LockOutlined />}
            loading={restrict.isPending}
            onClick={() => setLock({ user_id: user.id, lock_status: !isLocked })}
          >
            {isLocked ? 'Unrestrict User' : 'Restrict User'}
          </Button>
        </div>
      </Flex>
    </Card>
  );
}
