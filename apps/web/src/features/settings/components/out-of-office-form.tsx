import type { UserResponse } from '@imprest/domain/api/users.ts';
import {
  canBeDelegate,
  canDelegate,
  delegationPeriodProblem,
  maxDelegationDays,
  maxDelegationLeadDays,
  maxDelegationNoteLength,
} from '@imprest/domain/delegations.ts';
import { Alert, App, Button, Col, DatePicker, Form, Input, Row, Select, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useCurrentUser } from '../../../lib/session.tsx';
import { useCreateDelegation } from '../api/create-delegation.ts';
import { useDelegationCandidates } from '../api/get-delegation-candidates.ts';
import { personText } from './delegations-parts.tsx';
import { organisationTodayDate } from '../../../lib/organisation-date.ts';
import { useOneAtATime } from '../../../lib/use-one-at-a-time.ts';

type OutOfOfficeValues = {
  delegator_id: string;
  delegate_id?: string;
  days?: [Dayjs | null, Dayjs | null] | null;
  note?: string;
};

const dayFormat = 'YYYY-MM-DD';

function option(person: UserResponse) {
  return { value: person.id, label: personText(person) };
}

type OutOfOfficeFormProps = {
  /** The director names a delegate for any reviewer (issue 15): the Delegator select shows. */
  canChooseDelegator: boolean;
};

/**
 * Names a delegate for a period of days (docs/decisions/0019): a colleague who reviews requests,
 * from today or later, both days included. The server's refusals (an overlap, a locked delegate)
 * are written for people and shown as they come.
 */
export function OutOfOfficeForm({ canChooseDelegator }: OutOfOfficeFormProps) {
  const user = useCurrentUser();
  const [form] = Form.useForm<OutOfOfficeValues>();
  const candidates = useDelegationCandidates();
  const create = useCreateDelegation();
  const sendCreate = useOneAtATime(create);
  const { message } = App.useApp();
  const delegatorId = Form.useWatch('delegator_id', form) ?? user.id;
  // The organisation's day, the one the server judges by (docs/decisions/0004).
  const today = organisationTodayDate();
  const people = candidates.data ?? [];
  // A locked reviewer still reviews, so may still hand their steps over (docs/decisions/0019).
  // Until the list comes, the Delegator select offers the one person it starts on, known from the
  // session: without an option to name it, a select shows its value, the user's id.
  const delegatorOptions = (candidates.data ?? [user])
    .filter((person) => canDelegate(person.role))
    .map(option);
  const delegateOptions = people
    .filter(
      (person) => canBeDelegate(person.role) && !person.is_locked && person.id !== delegatorId,
    )
    .map(option);

  function handleValuesChange(changed: Partial<OutOfOfficeValues>) {
    if (changed.delegator_id && form.getFieldValue('delegate_id') === changed.delegator_id) {
      form.setFieldValue('delegate_id', undefined);
    }
  }

  function handleFinish(values: OutOfOfficeValues) {
    const [first, last] = values.days ?? [];
    if (!values.delegate_id || !first || !last) return;
    sendCreate(
      {
        delegate_id: values.delegate_id,
        starts_on: first.format(dayFormat),
        ends_on: last.format(dayFormat),
        note: values.note?.trim() || null,
        delegator_id: values.delegator_id === user.id ? undefined : values.delegator_id,
      },
      {
        onSuccess: (delegation) => {
          void message.success(`${delegation.delegate.fullname} is named as delegate`);
          form.resetFields();
        },
      },
    );
  }

  return (
    <Form<OutOfOfficeValues>
      form={form}
      layout="vertical"
      initialValues={{ delegator_id: user.id }}
      onValuesChange={handleValuesChange}
      onFinish={handleFinish}
      disabled={create.isPending}
      // Not the focus on the first field in error (app/antd-provider.tsx): Enter on the first day
      // submits the form too, as the picker moves on to the last day, where the focus must stay.
      scrollToFirstError={false}
      data-testid="out-of-office-form"
    >
      {candidates.isError ? (
        <Alert
          type="error"
          showIcon
          title={candidates.error.message}
          style={{ marginBottom: 16 }}
        />
      ) : null}
      <Row gutter={16}>
        {canChooseDelegator ? (
          <Col xs={24} md={12}>
            <Form.Item
              label="Delegator"
              name="delegator_id"
              extra="Whose review steps the delegate answers."
              rules={[{ required: true, message: 'Choose whose steps are handed over' }]}
            >
              <Select
                showSearch={{ optionFilterProp: 'label' }}
                loading={candidates.isPending}
                options={delegatorOptions}
              />
            </Form.Item>
          </Col>
        ) : null}
        <Col xs={24} md={12}>
          <Form.Item
            label="Delegate"
            name="delegate_id"
            rules={[{ required: true, message: 'Choose a delegate' }]}
          >
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              placeholder="A colleague who reviews requests"
              loading={candidates.isPending}
              options={delegateOptions}
              notFoundContent="No colleague who reviews requests"
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            label="Days"
            name="days"
            extra={`From today, at most ${maxDelegationDays} days; both days included.`}
            rules={[
              { required: true, message: 'Choose the first and the last day' },
              {
                validator: async (_rule, value: OutOfOfficeValues['days']) => {
                  const [first, last] = value ?? [];
                  if (!first || !last) return;
                  const problem = delegationPeriodProblem(
                    { starts_on: first.format(dayFormat), ends_on: last.format(dayFormat) },
                    today.format(dayFormat),
                  );
                  if (problem) throw new Error(problem);
                },
              },
            ]}
          >
            <DatePicker.RangePicker
              aria-label="Days"
              format="DD/MM/YYYY"
              style={{ width: '100%' }}
              disabledDate={(date) =>
                date.isBefore(today, 'day') ||
                date.isAfter(today.add(maxDelegationLeadDays, 'day'), 'day')
              }
              placeholder={['First day', 'Last day']}
            />
          </Form.Item>
        </Col>
        <Col xs={24}>
          <Form.Item label="Note (optional)" name="note">
            <Input.TextArea
              rows={2}
              maxLength={maxDelegationNoteLength}
              placeholder="e.g. On leave; urgent matters to the delegate"
            />
          </Form.Item>
        </Col>
      </Row>
      {create.isError ? (
        <Alert
          type="error"
          showIcon
          title="The delegate could not be saved"
          description={create.error.message}
          style={{ marginBottom: 16 }}
          data-testid="out-of-office-error"
        />
      ) : null}
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
        {delegatorId === user.id
          ? 'The delegate answers your review steps on your behalf, and each answer records both names. You keep the right to answer too.'
          : 'The delegate answers the delegator’s review steps on their behalf, and each answer records both names.'}
      </Typography.Paragraph>
      <Button type="primary" htmlType="submit" loading={create.isPending}>
        Save
      </Button>
    </Form>
  );
}
