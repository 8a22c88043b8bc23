import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import type { UserResponse } from '@imprest/domain/api/users.ts';
import {
  holdsPermissionBeyond,
  isAdmin,
  isSuperAdmin,
  mayRestrictUser,
  systemRoleFor,
} from '@imprest/domain/permissions.ts';
import { Alert, Button, Card, Col, Flex, Form, Popconfirm, Result, Row, Spin, Tag } from 'antd';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { SuccessPanel } from '../../../components/success-panel.tsx';
import { isApiError } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useCurrentUser } from '../../../lib/session.tsx';
import { useGoBack } from '../../../lib/use-go-back.ts';
import { useIsMobile } from '../../../lib/use-media-query.ts';
import { paths } from '../../../paths.ts';
import { useDeleteUser } from '../api/delete-user.ts';
import { useUser } from '../api/get-user.ts';
import { useUpdateUser, type UpdateUserInput } from '../api/update-user.ts';
import { AdminOnly } from '../components/admin-only.tsx';
import { RestrictPanel } from '../components/restrict-panel.tsx';
import {
  UserDetailsForm,
  userDetailsValues,
  type UserDetailsValues,
} from '../components/user-details-form.tsx';
import { deleteUserFailed, userUpdated } from '../components/user-messages.ts';
import '../components/users.css';
import { ObjectHistoryCard } from '../../../components/history/object-history-card.tsx';
import { useOneAtATime } from '../../../lib/use-one-at-a-time.ts';

const viewUsers = { label: 'View Users', href: paths.dashboard.users.getHref() };

/** The body of PUT users: only the fields the viewer may change, and only if they changed. */
function changesOf(
  user: UserResponse,
  values: UserDetailsValues,
  isDirector: boolean,
): UpdateUserInput {
  const body: UpdateUserInput = { user_id: user.id };
  if (values.email.trim() !== user.email) body.email = values.email.trim();
  if ((values.phone_number || null) !== (user.phone_number || null)) {
    body.phone_number = values.phone_number || null;
  }
  if (isDirector) {
    if (values.fullname.trim() !== user.fullname) body.fullname = values.fullname.trim();
    if (values.department !== user.department) body.department = values.department;
    if (values.role !== user.role) {
      body.role = values.role;
      body.system_role = systemRoleFor(values.role);
    }
  }
  return body;
}

type FactProps = { label: string; value: string; testId?: string };

function Fact({ label, value, testId }: FactProps) {
  return (
    <div>
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}

function UserView({ user }: { user: UserResponse }) {
  const viewer = useCurrentUser();
  const navigate = useNavigate();
  const isMobile = useIsMobile();
  const goBack = useGoBack(paths.dashboard.users.getHref());
  const [form] = Form.useForm<UserDetailsValues>();
  const [isEditing, setIsEditing] = useState(false);
  const [isUpdated, setIsUpdated] = useState(false);
  const update = useUpdateUser();
  const sendUpdate = useOneAtATime(update);
  const remove = useDeleteUser();
  const isDirector = isSuperAdmin(viewer.role);
  const isSelf = viewer.id === user.id;
  // Finance's panel, for anyone's account but their own (the server refuses that).
  const canRestrict = mayRestrictUser(viewer, user);

  if (isUpdated) {
    return (
      <SuccessPanel
        title={userUpdated}
        subTitle={`The details of ${user.fullname} have been saved.`}
        primary={viewUsers}
        secondary={{ label: 'Back to the user', onClick: () => setIsUpdated(false) }}
      />
    );
  }

  function handleCancel() {
    if (!isEditing) {
      goBack();
      return;
    }
    form.setFieldsValue(userDetailsValues(user));
    update.reset();
    setIsEditing(false);
  }

  function handleFinish(values: UserDetailsValues) {
    const body = changesOf(user, values, isDirector);
    if (Object.keys(body).length === 1) {
      setIsEditing(false);
      return;
    }
    sendUpdate(body, {
      onSuccess: () => {
        setIsEditing(false);
        setIsUpdated(true);
      },
    });
  }

  function handleDelete() {
    // The promise, not mutate's onSuccess: the users refresh (ours or a socket's) can answer 404
    // for the deleted user and unmount this view first, and mutate's callbacks die with it.
    void remove.mutateAsync(user.id).then(
      () => void navigate(paths.dashboard.users.getHref(), { replace: true }),
      () => undefined, // shown by the alert above (remove.isError)
    );
  }

  return (
    <Flex vertical gap={16} style={{ maxWidth: 1100 }}>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={canRestrict ? 16 : 24}>
          <Card
            size={isMobile ? 'small' : 'medium'}
            title={user.fullname}
            extra={
              user.is_locked ? (
                <Tag color="red" data-testid="restricted-tag">
                  Restricted
                </Tag>
              ) : null
            }
          >
            <Flex vertical gap={16}>
              {update.isError ? (
                <Alert
                  type="error"
                  showIcon
                  title={update.error.message}
                  data-testid="update-error"
                />
              ) : null}
              {remove.isError ? (
                <Alert
                  type="error"
                  showIcon
                  title={deleteUserFailed}
                  description={remove.error.message}
                  data-testid="delete-error"
                />
              ) : null}
              <UserDetailsForm
                form={form}
                user={user}
                isEditing={isEditing && !update.isPending}
                editable={{
                  isIdentityEditable: isDirector,
                  isEmailEditable:
                    isAdmin(viewer.role) && !holdsPermissionBeyond(user.role, viewer.role),
                  isPhoneEditable: isAdmin(viewer.role),
                }}
                canGiveDirector={isDirector}
                onFinish={handleFinish}
              />
              <dl className="user-facts">
                <Fact label="Created On" value={formatDateTime(user.created_at)} />
                <Fact label="Modified On" value={formatDateTime(user.modified_at)} />
                <Fact
                  label="Payment Request"
                  value={user.is_locked ? 'Restricted' : 'Allowed'}
                  testId="payment-request"
                />
                {isDirector ? (
                  <Fact
                    label="Last Logged In"
                    value={formatDateTime(user.last_logged_in) || 'N/A'}
                    testId="last-logged-in"
                  />
                ) : null}
              </dl>
              <Flex gap={12} justify="flex-end" wrap>
                <Button onClick={handleCancel}>Cancel</Button>
                {isDirector && !isSelf ? (
                  <Popconfirm
                    title="Delete user"
                    description={`Are you sure you want to delete the user ${user.fullname} from the system?`}
                    okText="Delete"
                    okButtonProps={{ danger: true, loading: remove.isPending }}
                    cancelText="Cancel"
                    onConfirm={handleDelete}
                  >
                    <Button danger icon={<DeleteOutlined />} loading={remove.isPending}>
                      Delete
                    </Button>
                  </Popconfirm>
                ) : null}
                {isEditing ? (
                  <Button type="primary" loading={update.isPending} onClick={() => form.submit()}>
                    Update User
                  </Button>
                ) : (
                  <Button type="primary" icon={<EditOutlined />} onClick={() => setIsEditing(true)}>
                    Edit
                  </Button>
                )}
              </Flex>
            </Flex>
          </Card>
        </Col>
        {canRestrict ? (
          <Col xs={24} lg={8}>
            <RestrictPanel user={user} />
          </Col>
        ) : null}
      </Row>
      <ObjectHistoryCard object_type="user" object_id={user.id} />
    </Flex>
  );
}

function UserLoader({ id }: { id: string }) {
  const navigate = useNavigate();
  const user = useUser(id);
  if (user.isPending) {
    return (
      <Flex justify="center" style={{ padding: 48 }}>
        <Spin size="large" />
      </Flex>
    );
  }
  if (user.isError) {
    const isMissing = isApiError(user.error, 404, 400);
    return (
      <Result
        status={isMissing ? '404' : 'error'}
        title={isMissing ? 'User not found' : 'The user could not be loaded'}
        subTitle={user.error.message}
        extra={[
          isMissing ? null : (
            <Button key="retry" onClick={() => void user.refetch()}>
              Try again
            </Button>
          ),
          <Button
            key="list"
            type="primary"
            onClick={() => void navigate(paths.dashboard.users.getHref())}
          >
            Back to users
          </Button>,
        ]}
      />
    );
  }
  // A fresh view (and form) for each user.
  return <UserView key={user.data.id} user={user.data} />;
}

/** Route /dashboard/view-user/{id} (spec §2 User view); admin only. */
export function UserViewPage() {
  const { id = '' } = useParams();
  return (
    <AdminOnly>
      <UserLoader id={id} />
    </AdminOnly>
  );
}
