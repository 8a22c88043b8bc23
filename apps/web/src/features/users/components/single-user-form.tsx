import { email as emailSchema, newPassword } from '@imprest/domain/api/common.ts';
import { userFullname } from '@imprest/domain/api/users.ts';
import type { Department, Role } from '@imprest/domain/enums.ts';
import { systemRoleFor } from '@imprest/domain/permissions.ts';
import { Button, Card, Col, Flex, Form, Input, Row, Select } from 'antd';
import type { ReactNode } from 'react';
import { useIsMobile } from '../../../lib/use-media-query.ts';
import { zodRule } from '../../../lib/zod-rule.ts';
import type { NewUserInput } from '../api/create-users.ts';
import { AccountRoleItem, PhoneNumberItem } from './user-fields.tsx';
import { departmentOptions, positionOptions } from './user-labels.ts';

type SingleUserValues = {
  fullname: string;
  email: string;
  department?: Department;
  role: Role;
  phone_number: string;
  password: string;
};

type SingleUserFormProps = {
  /** Spec §5: only a super admin may choose the director position. */
  canGiveDirector: boolean;
  isSaving: boolean;
  alert?: ReactNode;
  onSubmit: (user: NewUserInput) => void;
  onCancel: () => void;
};

const initialValues: Partial<SingleUserValues> = { role: 'staff', phone_number: '', password: '' };

const passwordRule = {
  validator: async (_rule: unknown, value: string | undefined) => {
    if (!value) return;
    const result = newPassword.safeParse(value);
    if (!result.success) throw new Error(result.error.issues[0]?.message ?? 'Invalid password');
  },
};

/** Spec §2 New users, Single: one user's details; Save shows loading while the user is added. */
export function SingleUserForm({
  canGiveDirector,
  isSaving,
  alert,
  onSubmit,
  onCancel,
}: SingleUserFormProps) {
  const [form] = Form.useForm<SingleUserValues>();
  const isMobile = useIsMobile();
  const role = Form.useWatch('role', form) ?? 'staff';

  function handleFinish(values: SingleUserValues) {
    onSubmit({
      fullname: values.fullname.trim(),
      email: values.email.trim(),
      department: values.department ?? 'administration',
      role: values.role,
      system_role: systemRoleFor(values.role),
      phone_number: values.phone_number || null,
      ...(values.password ? { password: values.password } : {}),
    });
  }

  return (
    <Form<SingleUserValues>
      form={form}
      name="single-user"
      layout="vertical"
      initialValues={initialValues}
      onFinish={handleFinish}
      disabled={isSaving}
    >
      <Card title="User details" size={isMobile ? 'small' : 'medium'}>
        <Flex vertical gap={16}>
          {alert}
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item label="Full name" name="fullname" rules={[zodRule(userFullname)]} required>
                <Input autoComplete="off" maxLength={200} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item label="E-mail" name="email" rules={[zodRule(emailSchema)]} required>
                <Input type="email" autoComplete="off" inputMode="email" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                label="Department"
                name="department"
                rules={[{ required: true, message: 'Choose a department' }]}
              >
                <Select
                  options={departmentOptions}
                  showSearch={{ optionFilterProp: 'label' }}
                  placeholder="Choose a department"
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <PhoneNumberItem />
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                label="Position"
                name="role"
                rules={[{ required: true, message: 'Choose a position' }]}
                extra={
                  canGiveDirector ? undefined : 'Only a Director can give the director position.'
                }
              >
                <Select options={positionOptions(canGiveDirector)} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <AccountRoleItem role={role} />
            </Col>
            <Col xs={24}>
              <Form.Item
                label="Temporary password (optional)"
                name="password"
                rules={[passwordRule]}
                extra="Leave it empty to send an invitation e-mail with a link where the user chooses a password."
                style={{ marginBottom: 0 }}
              >
                <Input.Password autoComplete="new-password" />
              </Form.Item>
            </Col>
          </Row>
        </Flex>
      </Card>
      <Flex gap={12} justify="flex-end" wrap style={{ marginTop: 16 }}>
        <Button onClick={onCancel} disabled={false}>
          Cancel
        </Button>
        <Button type="primary" htmlType="submit" loading={isSaving}>
          Save
        </Button>
      </Flex>
    </Form>
  );
}
