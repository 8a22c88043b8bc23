import { budgetPayload, type CreateBudgetRequest } from '@imprest/domain/api/budgets.ts';
import {
  budgetDepartments,
  budgetForm,
  parseTypedAmount,
  type BudgetFormInput,
} from '@imprest/domain/budgets.ts';
import { costCodeMax, costCodeMin } from '@imprest/domain/constants.ts';
import { branchNames, budgetCategoryNames, currencies } from '@imprest/domain/enums.ts';
import { Alert, Button, Card, Col, Flex, Form, Input, InputNumber, Row, Select } from 'antd';
import type { FormRule } from 'antd';
import type { ReactNode } from 'react';
import { currencyLabel } from '../../../lib/request-labels.ts';
import { AmountInput } from '../../../components/amount-input.tsx';
import { formatNumber } from '../../../lib/format.ts';
import { useFormFollows } from '../../../lib/use-form-follows.ts';
import { useIsMobile } from '../../../lib/use-media-query.ts';
import { zodRule } from '../../../lib/zod-rule.ts';
import { branchLabels, budgetCategoryLabel } from '@imprest/domain/enums.ts';
import { budgetDepartmentLabel } from '@imprest/domain/budgets.ts';
import { BudgetCodePreview } from './budget-code-preview.tsx';

/** The form's values as antd holds them: the cost code is empty (null) until one is typed. */
export type BudgetFormValues = Omit<BudgetFormInput, 'code'> & { code: number | null };

type BudgetFormProps = {
  initialValues: BudgetFormValues;
  /** Spec §4: once a budget has requests its currency, category, branch and code are frozen. */
  isFrozen?: boolean;
  /** Spec §2: an edit may only increase the amount, so it may not go below this. */
  minimumAmount?: number;
  isSaving: boolean;
  /** An alert shown above the fields (the failure of the last save). */
  alert?: ReactNode;
  /** More buttons between Cancel and Save (the edit page's Delete). */
  extraActions?: ReactNode;
  onSubmit: (payload: CreateBudgetRequest) => void;
  onCancel: () => void;
};

const shape = budgetForm.shape;

const departmentOptions = budgetDepartments.map((value) => ({
  value,
  label: budgetDepartmentLabel(value),
}));
const currencyOptions = currencies.map((value) => ({ value, label: currencyLabel(value) }));
const categoryOptions = budgetCategoryNames.map((value) => ({
  value,
  label: budgetCategoryLabel(value),
}));
const branchOptions = branchNames.map((value) => ({ value, label: branchLabels[value] }));

/** The fields' labels, in the order the form shows them. */
const fieldLabels: Record<keyof BudgetFormValues, string> = {
  name: 'Name',
  amount: 'Amount',
  department: 'Department',
  currency: 'Currency',
  categories: 'Expense category',
  branch: 'Branch',
  code: 'Cost code',
  description: 'Description',
};

/** A field's value as the form shows it, for a clash ("Name is now …"). */
function shownValue(field: keyof BudgetFormValues, values: Partial<BudgetFormValues>): string {
  switch (field) {
    case 'department':
      return values.department ? budgetDepartmentLabel(values.department) : '';
    case 'currency':
      return values.currency ? currencyLabel(values.currency) : '';
    case 'categories':
      return values.categories ? budgetCategoryLabel(values.categories) : '';
    case 'branch':
      return values.branch ? branchLabels[values.branch] : '';
    default:
      return String(values[field] ?? '');
  }
}

/**
 * What someone else saved in the fields changed here too, each with its value now: "Amount is now
 * 15,000,000." (docs/decisions/0036).
 */
function clashText(clashes: Partial<BudgetFormValues>): string {
  const fields = (Object.keys(fieldLabels) as (keyof BudgetFormValues)[]).filter(
    (field) => field in clashes,
  );
  return fields
    .map((field) => {
      const value = shownValue(field, clashes);
      return value
        ? `${fieldLabels[field]} is now ${value}.`
        : `${fieldLabels[field]} is now empty.`;
    })
    .join(' ');
}

/** The form values as the domain's form schema reads them. */
function toFormInput(values: BudgetFormValues | undefined): unknown {
  if (!values) return undefined;
  return { ...values, code: values.code ?? undefined };
}

/** Whether the typed amount stays at or above the minimum of an edit. */
function isAtLeast(amount: string | undefined, minimum: number | undefined): boolean {
  if (minimum === undefined) return true;
  const value = parseTypedAmount(amount ?? '');
  return Number.isNaN(value) || value >= minimum;
}

/**
 * The add / edit budget form (spec §2, §5): the fields of spec §3, the live budget code, the cost
 * code warning and the description hint. Save stays disabled while anything is invalid.
 */
export function BudgetForm({
  initialValues,
  isFrozen = false,
  minimumAmount,
  isSaving,
  alert,
  extraActions,
  onSubmit,
  onCancel,
}: BudgetFormProps) {
  const [form] = Form.useForm<BudgetFormValues>();
  // Editing: the budget as it refreshes (budget_updated) reaches the fields not changed here, so a
  // save does not put back what another finance officer changed meanwhile; a field changed here
  // and there too is a clash, shown before Save replaces it.
  const clashes = useFormFollows(form, initialValues);
  const hasClashes = Object.keys(clashes).length > 0;
  const isMobile = useIsMobile();
  const values = Form.useWatch([], form) as BudgetFormValues | undefined;
  const parsed = budgetForm.safeParse(toFormInput(values));
  const isValid = parsed.success && isAtLeast(values?.amount, minimumAmount);

  const minimumRule: FormRule = {
    validator: async (_rule, value: string | undefined) => {
      if (!isAtLeast(value, minimumAmount) && minimumAmount !== undefined) {
        throw new Error(
          `The amount can only be increased; it is ${formatNumber(minimumAmount)} now.`,
        );
      }
    },
  };

  function handleFinish(submitted: BudgetFormValues) {
    const result = budgetForm.safeParse(toFormInput(submitted));
    if (!result.success) return;
    onSubmit(budgetPayload(result.data));
  }

  return (
    <Form<BudgetFormValues>
      form={form}
      name="budget"
      layout="vertical"
      initialValues={initialValues}
      onFinish={handleFinish}
      disabled={isSaving}
    >
      <Flex vertical gap={16}>
        {alert}
        {hasClashes ? (
          <Alert
            type="warning"
            showIcon
            title="Someone else saved this budget while you were editing."
            description={`${clashText(clashes)} Save replaces their changes with yours; Cancel keeps theirs.`}
            data-testid="budget-clash"
          />
        ) : null}
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={16}>
            <Card title="Budget details" size={isMobile ? 'small' : 'medium'}>
              <Row gutter={16}>
                <Col xs={24} md={12}>
                  <Form.Item label="Name" name="name" required rules={[zodRule(shape.name)]}>
                    <Input autoComplete="off" maxLength={200} />
                  </Form.Item>
                </Col>
                <Col xs={24} md={12}>
                  <Form.Item
                    label="Amount"
                    name="amount"
                    required
                    rules={[zodRule(shape.amount), minimumRule]}
                    extra={
                      // Below the minimum, the error says it; the hint would say it twice.
                      minimumAmount === undefined || !isAtLeast(values?.amount, minimumAmount)
                        ? undefined
                        : `Amounts can only go up: at least ${formatNumber(minimumAmount)}.`
                    }
                  >
                    <AmountInput placeholder="0" />
                  </Form.Item>
                </Col>
                <Col xs={24} md={12}>
                  <Form.Item label="Department" name="department">
                    <Select
                      options={departmentOptions}
                      showSearch={{ optionFilterProp: 'label' }}
                    />
                  </Form.Item>
                </Col>
                <Col xs={24} md={12}>
                  <Form.Item
                    label="Currency"
                    name="currency"
                    required
                    rules={[zodRule(shape.currency)]}
                  >
                    <Select options={currencyOptions} disabled={isFrozen} />
                  </Form.Item>
                </Col>
                <Col xs={24} md={12}>
                  <Form.Item
                    label="Expense category"
                    name="categories"
                    required
                    rules={[zodRule(shape.categories)]}
                  >
                    <Select options={categoryOptions} disabled={isFrozen} />
                  </Form.Item>
                </Col>
                <Col xs={24} md={12}>
                  <Form.Item label="Branch" name="branch" required rules={[zodRule(shape.branch)]}>
                    <Select options={branchOptions} disabled={isFrozen} />
                  </Form.Item>
                </Col>
                <Col xs={24} md={12}>
                  <Form.Item
                    label="Cost code"
                    name="code"
                    required
                    rules={[zodRule(shape.code)]}
                    extra={`A number from ${costCodeMin} to ${costCodeMax}.`}
                  >
                    <InputNumber
                      inputMode="numeric"
                      placeholder={`${costCodeMin}–${costCodeMax}`}
                      disabled={isFrozen}
                      style={{ width: '100%' }}
                    />
                  </Form.Item>
                </Col>
                <Col xs={24}>
                  <Form.Item
                    label="Description"
                    name="description"
                    rules={[zodRule(shape.description)]}
                    extra="Use the description for extra metadata such as the source of funds or intended purpose."
                    style={{ marginBottom: 0 }}
                  >
                    <Input.TextArea autoSize={{ minRows: 3, maxRows: 8 }} maxLength={2000} />
                  </Form.Item>
                </Col>
              </Row>
            </Card>
          </Col>
          <Col xs={24} lg={8}>
            <Card title="Budget code" size={isMobile ? 'small' : 'medium'}>
              <Flex vertical gap={16}>
                <BudgetCodePreview
                  category={values?.categories ?? initialValues.categories}
                  branch={values?.branch ?? initialValues.branch}
                  costCode={values ? values.code : initialValues.code}
                />
                <Alert
                  type="warning"
                  showIcon
                  title={`The cost code accepts only numbers from ${costCodeMin} to ${costCodeMax}, and the final budget code is computed from the expense category and branch.`}
                />
              </Flex>
            </Card>
          </Col>
        </Row>
        <Flex gap={12} justify="flex-end" wrap>
          <Button onClick={onCancel} disabled={false}>
            Cancel
          </Button>
          {extraActions}
          <Button type="primary" htmlType="submit" disabled={!isValid} loading={isSaving}>
            Save
          </Button>
        </Flex>
      </Flex>
    </Form>
  );
}
