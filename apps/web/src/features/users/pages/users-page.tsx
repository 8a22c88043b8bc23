import { SearchOutlined } from '@ant-design/icons';
import type { UserResponse } from '@imprest/domain/api/users.ts';
import { defaultPageSize } from '@imprest/domain/constants.ts';
import { roleLabels, roles } from '@imprest/domain/enums.ts';
import { Card, Flex, Input, Select } from 'antd';
import { useNavigate } from 'react-router';
import { LoadError } from '../../../components/load-error.tsx';
import { tablePagination } from '../../../lib/pagination.tsx';
import { useIsMobile } from '../../../lib/use-media-query.ts';
import { useEntryState } from '../../../lib/use-entry-state.ts';
import { useListFilters } from '../../../lib/use-list-filters.ts';
import { paths } from '../../../paths.ts';
import { VacantPositions } from '../../approval-matrix/components/vacant-positions.tsx';
import { useUsers, type UserListDepartment, type UserListRole } from '../api/get-users.ts';
import { AdminOnly } from '../components/admin-only.tsx';
import { departmentOptions } from '../components/user-labels.ts';
import { UsersTable } from '../components/users-table.tsx';

const departmentFilterOptions = [{ value: 'all', label: 'All departments' }, ...departmentOptions];
const roleFilterOptions = [
  { value: 'all', label: 'All positions' },
  ...roles.map((value) => ({ value, label: roleLabels[value] })),
];

function Users() {
  const navigate = useNavigate();
  const isMobile = useIsMobile();
  const [department, setDepartment] = useEntryState<UserListDepartment>('users-department', 'all');
  const [role, setRole] = useEntryState<UserListRole>('users-role', 'all');
  const filters = useListFilters(`${department}|${role}`, defaultPageSize);
  const users = useUsers({
    department,
    role,
    page: filters.page,
    perPage: filters.perPage,
    search: filters.search,
  });

  function openUser(user: UserResponse) {
    void navigate(paths.dashboard.viewUser.getHref(user.id));
  }

  return (
    <Card size={isMobile ? 'small' : 'medium'} data-testid="users-page">
      <Flex vertical gap={16}>
        <VacantPositions />
        <Flex gap={12} wrap>
          <Input
            allowClear
            prefix={<SearchOutlined />}
            placeholder="Search by name or e-mail"
            aria-label="Search users"
            value={filters.searchText}
            onChange={(event) => filters.setSearchText(event.target.value)}
            style={{ flex: '1 1 220px', maxWidth: 420 }}
          />
          <Select<UserListDepartment>
            aria-label="Department"
            value={department}
            onChange={setDepartment}
            options={departmentFilterOptions}
            style={{ flex: '1 1 140px', maxWidth: 220 }}
            data-testid="department-filter"
          />
          <Select<UserListRole>
            aria-label="Position"
            value={role}
            onChange={setRole}
            options={roleFilterOptions}
            style={{ flex: '1 1 140px', maxWidth: 220 }}
            data-testid="role-filter"
          />
        </Flex>
        {users.isError ? (
          <LoadError title={users.error.message} onRetry={() => users.refetch()} />
        ) : null}
        <UsersTable
          users={users.data?.users ?? []}
          isLoading={users.isPending || (users.isFetching && users.isPlaceholderData)}
          isError={users.isError}
          pagination={tablePagination(users.data?.total ?? 0, {
            current: filters.page,
            pageSize: filters.perPage,
            onChange: filters.changePage,
          })}
          onOpen={openUser}
        />
      </Flex>
    </Card>
  );
}

/** Route /dashboard/users (spec §2 Users list): search, department and position filters; admin only. */
export function UsersPage() {
  return (
    <AdminOnly>
      <Users />
    </AdminOnly>
  );
}
