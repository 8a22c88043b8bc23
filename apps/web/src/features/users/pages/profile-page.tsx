import { Card, Descriptions, Flex } from 'antd';
import { departmentLabel } from '../../../lib/request-labels.ts';
import { useCurrentUser } from '../../../lib/session.tsx';
import { OwnPasswordCard } from '../components/own-password-card.tsx';
import { OwnPhoneCard } from '../components/own-phone-card.tsx';
import { roleLabel } from '../components/user-labels.ts';
import { systemRoleLabels } from '@imprest/domain/enums.ts';

/** Route /dashboard/profile ('My profile' in the user menu): one's own details, phone and password. */
export function ProfilePage() {
  const user = useCurrentUser();
  return (
    <Flex vertical gap={16} style={{ maxWidth: 880 }} data-testid="profile-page">
      <Card title="My profile" size="small">
        <Descriptions
          column={{ xs: 1, sm: 2 }}
          size="small"
          items={[
            { key: 'name', label: 'Full name', children: user.fullname },
            { key: 'email', label: 'E-mail', children: user.email },
            { key: 'department', label: 'Department', children: departmentLabel(user.department) },
            { key: 'role', label: 'Position', children: roleLabel(user.role) },
            { key: 'system', label: 'System role', children: systemRoleLabels[user.system_role] },
            {
              key: 'requests',
              label: 'Payment Request',
              children: user.is_locked ? 'Restricted' : 'Allowed',
            },
          ]}
        />
      </Card>
      <OwnPhoneCard />
      <OwnPasswordCard />
    </Flex>
  );
}
