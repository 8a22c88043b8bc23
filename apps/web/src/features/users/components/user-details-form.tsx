import { email as emailSchema } from '@imprest/domain/api/common.ts';
import { userFullname, type UserResponse } from '@imprest/domain/api/users.ts';
import type { Department, Role } from '@imprest/domain/enums.ts';
import { Col, Form, Input, Row, Select, type FormInstance } from 'antd';
import { useFormFollows } from '../../../lib/use-form-follows.ts';
import { zodRule } from '../../../lib/zod-rule.ts';
import { AccountRoleItem, PhoneNumberItem } from './user-fields.tsx';
import { departmentOptions, positionOptions } from './user-labels.ts';

export type UserDetailsValues = {
  fullname: string;
  email: string;
  department: Department;
  role: Role;
  phone_number: string;
};

/** Which fields the viewer may change once editing (decisions §9). */
export type EditableFields = {
  /** Name, department and position: the director only. */
  isIdentityEditable: boolean;
  /** E-mail: admins, of someone holding no permission they lack (docs/decisions/0033). */
  isEmailEditable: boolean;
  /** Phone: admins. */
  isPhoneEditable: boolean;
};

type UserDetailsFormProps = {
  form: FormInstance<UserDetailsValues>;
  user: UserResponse;
  isEditing: boolean;
  editable: EditableFields;
  /** Spec §5: only a super admin may give the director position. */
  canGiveDirector: boolean;
  onFinish: (values: UserDetailsValues) => void;
};

/** The form values of a user. */
export function userDetailsValues(user: UserResponse): UserDetailsValues {
  return {
    fullname: user.fullname,
    email: user.email,
    department: user.department,
    role: user.role,
    phone_number: user.phone_number ?? '',
  };
}

/** Spec §2 User view: the user's fields, read-only until Edit, then only those the viewer may change. */
export function UserDetailsForm({
  form,
  user,
  isEditing,
  editable,
  canGiveDirector,
  onFinish,
}: UserDetailsFormProps) {
  // A refreshed user (update_user) reaches the fields the viewer has not changed, so a save sends
  // only what they changed (the view's changesOf compares with the refreshed user).
  useFormFollows(form, userDetailsValues(user));
  const role = Form.useWatch('role', form) ?? user.role;
  const isIdentityLocked = !isEditing || !editable.isIdentityEditable;
  const isEmailLocked = !isEditing || !editable.isEmailEditable;
  const isPhoneLocked = !isEditing || !editable.isPhoneEditable;
  // The current position stays choosable even for a viewer who may not give it.
  const roleOptions = positionOptions(canGiveDirector || user.role === 'director');

  return (
    <Form<UserDetailsValues>
      form={form}
      name="user-details"
      layout="vertical"
      initialValues={userDetailsValues(user)}
      onFinish={onFinish}
      requiredMark={isEditing}
    >
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item label="Full name" name="fullname" rules={[zodRule(userFullname)]} required>
            <Input disabled={isIdentityLocked} maxLength={200} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            label="E-mail"
            name="email"
            rules={[zodRule(emailSchema)]}
            required
            extra={
              // An admin who may edit the phone but not this e-mail: say why (decision 0033).
              isEditing && editable.isPhoneEditable && !editable.isEmailEditable
                ? 'Only someone holding every permission of this user can change their e-mail.'
                : undefined
            }
          >
            <Input disabled={isEmailLocked} type="email" inputMode="email" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item label="Department" name="department" required>
            <Select
              disabled={isIdentityLocked}
              options={departmentOptions}
              showSearch={{ optionFilterProp: 'label' }}
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <PhoneNumberItem disabled={isPhoneLocked} />
        </Col>
        <Col xs={24} md={12}>
          <Form.Item label="Position" name="role" required>
            <Select disabled={isIdentityLocked} options={roleOptions} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <AccountRoleItem role={role} disabled />
        </Col>
      </Row>
    </Form>
  );
}
