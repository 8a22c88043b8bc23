import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  approvalMatrixRowInput,
  updateApprovalMatrixRequest,
  type ApprovalMatrixRowResponse,
} from '@imprest/domain/api/approval-matrix.ts';
import { sortedRows, type ApprovalMatrixRow } from '@imprest/domain/approval-matrix.ts';
import { parseTypedAmount } from '@imprest/domain/budgets.ts';
import { roleLabels } from '@imprest/domain/enums.ts';
import { reviewerHierarchy, type ReviewerRole } from '@imprest/domain/requests.ts';
import { Alert, Button, Card, Col, Flex, Form, Input, Row, Select, Switch } from 'antd';
import { useState } from 'react';
import { AmountInput, formatTypedAmount } from '../../../components/amount-input.tsx';
import { useFormFollows } from '../../../lib/use-form-follows.ts';
import { useUpdateApprovalMatrix } from '../api/update-approval-matrix.ts';
import { matrixLabels } from './matrix-labels.ts';
import { useOneAtATime } from '../../../lib/use-one-at-a-time.ts';

/** Spec §8: a refused save. */
const saveFailed = 'Error! Changes not saved!';

type RowValues = {
  /** Amounts as typed, with thousands separators; spec §5: parsed from digits only. */
  startValue?: string;
  endValue?: string;
  description: string;
  cascadingNotification: boolean;
  reviewers: (ReviewerRole | undefined)[];
};

type MatrixFormValues = { rows: RowValues[] };

function valuesOf(rows: ApprovalMatrixRowResponse[]): MatrixFormValues {
  return {
    rows: sortedRows(rows).map((row) => ({
      startValue: formatTypedAmount(String(row.start_value), false),
      endValue: row.end_value === null ? '' : formatTypedAmount(String(row.end_value), false),
      description: row.description,
      cascadingNotification: row.cascading_notification,
      reviewers: [row.user_role[0], row.user_role[1], row.user_role[2]],
    })),
  };
}

/** Spec §5: approval matrix amounts are parsed from digits only; empty is none. */
function digitsOf(text: string | undefined): number | null {
  const digits = (text ?? '').replace(/\D/g, '');
  return digits ? parseTypedAmount(digits) : null;
}

function rowsOf(values: MatrixFormValues): ApprovalMatrixRow[] {
  return values.rows.map((row) => ({
    start_value: digitsOf(row.startValue) ?? 0,
    end_value: digitsOf(row.endValue),
    description: row.description?.trim() ?? '',
    cascading_notification: Boolean(row.cascadingNotification),
    user_role: row.reviewers.filter((role): role is ReviewerRole => Boolean(role)),
  }));
}

/** A refusal of the shared schema in words, with the row it concerns when it concerns one. */
function problemOf(issue: { message: string; path: PropertyKey[] } | undefined): string {
  if (!issue) return saveFailed;
  const [, row] = issue.path;
  return typeof row === 'number' ? `Row ${row + 1}: ${issue.message}` : issue.message;
}

/** A row's reviewers up to this one, by the shared rule (once each, in the hierarchy's order). */
const reviewersInOrder =
  (row: number, position: number) =>
  ({ getFieldValue }: { getFieldValue: (name: (string | number)[]) => unknown }) => ({
    validator(_rule: unknown, value: ReviewerRole | undefined) {
      if (!value) return Promise.resolve();
      const chosen = (getFieldValue(['rows', row, 'reviewers']) ?? []) as (
        ReviewerRole | undefined
      )[];
      const roles = chosen.slice(0, position + 1).filter((role): role is ReviewerRole => !!role);
      const parsed = approvalMatrixRowInput.shape.user_role.safeParse(roles);
      return parsed.success
        ? Promise.resolve()
        : Promise.reject(new Error(parsed.error.issues[0]?.message ?? saveFailed));
    },
  });

const roleOptions = reviewerHierarchy.map((role) => ({ value: role, label: roleLabels[role] }));

type ApprovalMatrixFormProps = {
  rows: ApprovalMatrixRowResponse[];
  /** The version of `rows`, sent with the save (docs/decisions/0035). */
  version: string | null;
  onCancel: () => void;
  onSaved: () => void;
};

/** Spec §2 /dashboard/approval-object: edit the rows of the approval matrix and save them all. */
export function ApprovalMatrixForm({ rows, version, onCancel, onSaved }: ApprovalMatrixFormProps) {
  const [form] = Form.useForm<MatrixFormValues>();
  // Another director's save reaches an untouched form; one that has been changed here shows the
  // clash, and a save made on an older matrix than the stored one is refused (decision 0035).
  const initialValues = valuesOf(rows);
  const clashes = useFormFollows(form, initialValues);
  const update = useUpdateApprovalMatrix();
  const sendUpdate = useOneAtATime(update);
  const [problem, setProblem] = useState<string | null>(null);

  /** The rules the server applies (packages/domain), so a refused matrix is never sent. */
  function problemIn(values: MatrixFormValues): string | null {
    const parsed = updateApprovalMatrixRequest.safeParse({ rows: rowsOf(values) });
    return parsed.success ? null : problemOf(parsed.error.issues[0]);
  }

  function handleFinish(values: MatrixFormValues) {
    const found = problemIn(values);
    setProblem(found);
    if (!found) sendUpdate({ body: { rows: rowsOf(values) }, version }, { onSuccess: onSaved });
  }

  // A problem shown stays true to the rows as they are edited: it goes once they are mended.
  function handleValuesChange(_changed: unknown, values: MatrixFormValues) {
    if (problem) setProblem(problemIn(values));
  }

  return (
    <Form<MatrixFormValues>
      form={form}
      layout="vertical"
      initialValues={initialValues}
      onFinish={handleFinish}
      onValuesChange={handleValuesChange}
      disabled={update.isPending}
      data-testid="approval-matrix-form"
    >
      <Form.List name="rows">
        {(fields, { add, remove }) => (
          <Flex vertical gap={16}>
            {fields.map((field, index) => (
              <Card
                key={field.key}
                size="small"
                title={`Row ${index + 1}`}
                extra={
                  fields.length > 1 ? (
                    <Button
                      type="text"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={`Remove row ${index + 1}`}
                      onClick={() => remove(field.name)}
                    />
                  ) : null
                }
                data-testid="approval-row"
              >
                <Row gutter={16}>
                  <Col xs={24} sm={12} lg={6}>
                    <Form.Item
                      label={matrixLabels.startAmount}
                      name={[field.name, 'startValue']}
                      rules={[{ required: true, message: 'Enter the start amount' }]}
                    >
                      <AmountInput placeholder="0" allowDecimals={false} />
                    </Form.Item>
                  </Col>
                  <Col xs={24} sm={12} lg={6}>
                    <Form.Item
                      label={matrixLabels.endAmount}
                      name={[field.name, 'endValue']}
                      extra="Leave empty for no upper limit"
                    >
                      <AmountInput placeholder="No limit" allowDecimals={false} />
                    </Form.Item>
                  </Col>
                  <Col xs={24} sm={12} lg={8}>
                    <Form.Item label={matrixLabels.description} name={[field.name, 'description']}>
                      <Input maxLength={200} />
                    </Form.Item>
                  </Col>
                  <Col xs={24} sm={12} lg={4}>
                    <Form.Item
                      label={matrixLabels.cascadingNotification}
                      name={[field.name, 'cascadingNotification']}
                      valuePropName="checked"
                    >
                      <Switch />
                    </Form.Item>
                  </Col>
                  {matrixLabels.reviewers.map((label, position) => (
                    <Col key={label} xs={24} sm={8}>
                      <Form.Item
                        label={label}
                        name={[field.name, 'reviewers', position]}
                        rules={
                          position === 0
                            ? [{ required: true, message: 'Choose the first reviewer' }]
                            : [reviewersInOrder(field.name, position)]
                        }
                      >
                        <Select<ReviewerRole>
                          allowClear={position > 0}
                          placeholder={position === 0 ? 'Select a role' : 'None'}
                          options={roleOptions}
                        />
                      </Form.Item>
                    </Col>
                  ))}
                </Row>
              </Card>
            ))}
            <Button
              type="dashed"
              icon={<PlusOutlined />}
              onClick={() =>
                add({
                  startValue: '',
                  endValue: '',
                  description: '',
                  cascadingNotification: false,
                  reviewers: [],
                } satisfies RowValues)
              }
            >
              Add row
            </Button>
          </Flex>
        )}
      </Form.List>
      {'rows' in clashes ? (
        <Alert
          type="warning"
          showIcon
          title="Someone else saved the approval matrix while you were editing."
          description="Save replaces their rows with yours; Cancel keeps theirs."
          style={{ marginTop: 16 }}
          data-testid="matrix-clash"
        />
      ) : null}
      {problem ? <Alert type="warning" showIcon title={problem} style={{ marginTop: 16 }} /> : null}
      {update.isError ? (
        <Alert
          type="error"
          showIcon
          title={saveFailed}
          description={update.error.message}
          style={{ marginTop: 16 }}
          data-testid="matrix-save-error"
        />
      ) : null}
      <Flex gap={12} justify="flex-end" wrap style={{ marginTop: 16 }}>
        <Button onClick={onCancel} disabled={false}>
          Cancel
        </Button>
        <Button type="primary" htmlType="submit" loading={update.isPending}>
          Save
        </Button>
      </Flex>
    </Form>
  );
}
