import type { Role } from '@imprest/domain/enums.ts';
import { systemRoleFor } from '@imprest/domain/permissions.ts';
import { Form, Input } from 'antd';
import type { CSSProperties } from 'react';
import { digitsOnly } from '../utils/users-csv.ts';
import { systemRoleLabels } from '@imprest/domain/enums.ts';

type PhoneNumberItemProps = { disabled?: boolean; extra?: string; style?: CSSProperties };

/** The phone field of the user forms: spec §5, phone inputs keep digits only. */
export function PhoneNumberItem({ disabled, extra, style }: PhoneNumberItemProps) {
  return (
    <Form.Item
      label="Phone number"
      name="phone_number"
      normalize={(value: string | undefined) => digitsOnly(value ?? '')}
      extra={extra}
      style={style}
    >
      <Input disabled={disabled} inputMode="numeric" autoComplete="tel" maxLength={20} />
    </Form.Item>
  );
}

/** The account role of a position, shown, never chosen: decisions §3 keeps them consistent. */
export function AccountRoleItem({ role, disabled }: { role: Role; disabled?: boolean }) {
  return (
    <Form.Item label="Account role" extra="Set by the position.">
      <Input
        readOnly
        disabled={disabled}
        value={systemRoleLabels[systemRoleFor(role)]}
        aria-label="Account role"
        data-testid="account-role"
      />
    </Form.Item>
  );
}
