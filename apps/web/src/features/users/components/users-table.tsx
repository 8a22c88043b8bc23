import type { UserResponse } from '@imprest/domain/api/users.ts';
import { Table, Typography, type TableColumnsType, type TablePaginationConfig } from 'antd';
import { Link } from 'react-router';
import { EmailAddress } from '../../../components/email-address.tsx';
import { departmentLabel } from '../../../lib/request-labels.ts';
import { useIsMobile } from '../../../lib/use-media-query.ts';
import { paths } from '../../../paths.ts';
import { systemRoleLabels } from '@imprest/domain/enums.ts';

type UsersTableProps = {
  users: UserResponse[];
  isLoading: boolean;
  /** The list failed to load: its error says so, and the empty text would claim there is none. */
  isError?: boolean;
  pagination: TablePaginationConfig;
  onOpen: (user: UserResponse) => void;
};

/** Spec §2 Users list: NAME, DEPARTMENT, EMAIL ADDRESS, SYSTEM ROLE; a row opens the user view. */
export function UsersTable({
  users,
  isLoading,
  isError = false,
  pagination,
  onOpen,
}: UsersTableProps) {
  const isMobile = useIsMobile();
  /** A cell's props that, on a phone, wrap its text within `width`. */
  const wrapOnPhone = (width: string) =>
    isMobile ? { style: { maxWidth: width, whiteSpace: 'normal' as const } } : {};
  const columns: TableColumnsType<UserResponse> = [
    {
      title: 'NAME',
      key: 'name',
      // On a phone the name wraps in a narrow column, with the department under it (its own
      // column is hidden there), so the e-mail address and the system role fit the width.
      onCell: () => wrapOnPhone('6rem'),
      render: (_value, user) => (
        <>
          <Link
            to={paths.dashboard.viewUser.getHref(user.id)}
            onClick={(event) => event.stopPropagation()}
          >
            {user.fullname}
          </Link>
          {isMobile ? (
            <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
              {departmentLabel(user.department)}
            </Typography.Text>
          ) : null}
        </>
      ),
    },
    {
      title: 'DEPARTMENT',
      key: 'department',
      // Hidden where isMobile shows it under the name (AntD's md is the 768 px tablet breakpoint).
      responsive: ['md'],
      render: (_value, user) => departmentLabel(user.department),
    },
    {
      title: 'EMAIL ADDRESS',
      dataIndex: 'email',
      key: 'email',
      // A long address wraps before its "@" rather than push SYSTEM ROLE out of a phone's width.
      onCell: () => wrapOnPhone('8rem'),
      render: (email: string) => <EmailAddress email={email} />,
    },
    {
      // On phones the title takes two lines, as the retirements list's AMOUNT SPENT does.
      title: isMobile ? <span className="table-title-wrap">SYSTEM ROLE</span> : 'SYSTEM ROLE',
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
      // While the first page loads the spinner speaks, after a failure the error does; 'No users
      // found!' only once the list is known to be empty.
      locale={{ emptyText: isLoading || isError ? ' ' : 'No users found!' }}
      pagination={{ ...pagination, size: isMobile ? 'small' : undefined }}
      onRow={(user) => ({ onClick: () => onOpen(user), style: { cursor: 'pointer' } })}
      data-testid="users-table"
    />
  );
}
