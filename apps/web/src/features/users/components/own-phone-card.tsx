import { Alert, Button, Card, Flex, Form, Typography } from 'antd';
import { useSession, useCurrentUser } from '../../../lib/session.tsx';
import { useFormFollows } from '../../../lib/use-form-follows.ts';
import { useUpdateUser } from '../api/update-user.ts';
import { PhoneNumberItem } from './user-fields.tsx';

type PhoneValues = { phone_number: string };

/** My profile: one's own phone number (decisions §9: every user changes their own phone). */
export function OwnPhoneCard() {
  const user = useCurrentUser();
  const { revalidate } = useSession();
  const update = useUpdateUser();
  const [form] = Form.useForm<PhoneValues>();
  // A director's change of this phone reaches the field while it is left alone here.
  const values = { phone_number: user.phone_number ?? '' };
  useFormFollows(form, values);

  function handleFinish(values: PhoneValues) {
    update.mutate(
      { user_id: user.id, phone_number: values.phone_number || null },
      { onSuccess: () => void revalidate() },
    );
  }

  return (
    <Card title="Phone number" size="small">
      <Form<PhoneValues>
        form={form}
        name="own-phone"
        layout="vertical"
        initialValues={values}
        onFinish={handleFinish}
        onValuesChange={() => update.reset()}
        disabled={update.isPending}
      >
        <Flex vertical gap={12}>
          {update.isError ? (
            <Alert type="error" showIcon title={update.error.message} data-testid="phone-error" />
          ) : null}
          {update.isSuccess ? (
            <Alert type="success" showIcon title="Your phone number has been saved." />
          ) : null}
          <PhoneNumberItem extra="Digits only." style={{ marginBottom: 0, maxWidth: 320 }} />
          <div>
            <Button type="primary" htmlType="submit" loading={update.isPending}>
              Save phone number
            </Button>
          </div>
          <Typography.Text type="secondary">
            Your name, e-mail, department and position are kept by your administrators.
          </Typography.Text>
        </Flex>
      </Form>
    </Card>
  );
}
