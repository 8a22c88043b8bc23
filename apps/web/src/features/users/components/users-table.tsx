import type { UserResponse } from '@imprest/domain/api/users.ts';
import { Table, type TableColumnsType, type TablePaginationConfig } from 'antd';
import { Link } from 'react-router';
import { departmentLabel } from '../../../lib/request-labels.ts';
import { useIsMobile } from '../../../lib/use-media-query.ts';
import { paths } from '../../../paths.ts';
import { systemRoleLabels } from './user-labels.ts';

type UsersTableProps = {
  users: UserResponse[];
  isLoading: boolean;
  pagination: TablePaginationConfig;
  onOpen: (user: UserResponse) => void;
};

/** Spec §2 Users list: NAME, DEPARTMENT, EMAIL ADDRESS, SYSTEM ROLE; a row opens the user view. */
export function UsersTable({ users, isLoading, pagination, onOpen }: UsersTableProps) {
  const isMobile = useIsMobile();
  const columns: TableColumnsType<UserResponse> = [
    {
      title: 'NAME',
      key: 'name',
      render: (_value, user) => (
        <Link
          to={paths.dashboard.viewUser.getHref(user.id)}
          onClick={(event) => event.stopPropagation()}
        >
          {user.fullname}
        </Link>
      ),
    },
    {
      title: 'DEPARTMENT',
      key: 'department',
      render: (_value, user) => departmentLabel(user.department),
    },
    {
      title: 'EMAIL ADDRESS',
      dataIndex: 'email',
      key: 'email',
      render: (email: string) => <span style={{ wordBreak: 'break-all' }}>{email}</span>,
    },
    {
      title: 'SYSTEM ROLE',
      key: 'system_role',
      render: (_value, user) => systemRoleLabels[user.system_role],
    },
  ];

  return (
    <Table<UserResponse>
      rowKey="id"
      columns={columns}
      dataSource={users}
      loading={isLoading}
      size={isMobile ? 'small' : 'middle'}
      scroll={{ x: 'max-content' }}
      // While the first page loads the spinner speaks; 'No users found!' only once it is known.
      locale={{ emptyText: isLoading ? ' ' : 'No users found!' }}
      pagination={{ ...pagination, size: isMobile ? 'small' : undefined }}
      onRow={(user) => ({ onClick: () => onOpen(user), style: { cursor: 'pointer' } })}
      data-testid="users-table"
    />
  );
}
