import type { RequestResponse } from '@imprest/domain/api/requests.ts';
import type { UserResponse } from '@imprest/domain/api/users.ts';
import { parseTypedAmount } from '@imprest/domain/budgets.ts';
import {
  currencies,
  paymentMethods,
  requestCategoryNames,
  taxModes,
  type Currency,
  type PaymentMethod,
  type RequestCategory,
  type TaxMode,
} from '@imprest/domain/enums.ts';
import { messages } from '@imprest/domain/messages.ts';
import { maxAmount, positiveAmount } from '@imprest/domain/money.ts';
import { Alert, Button, Col, DatePicker, Flex, Form, Input, Row, Select, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { AmountInput, formatTypedAmount } from '../../../components/amount-input.tsx';
import { formatAmount } from '../../../lib/format.ts';
import {
  currencyLabel,
  departmentLabel,
  paymentMethodLabels,
  purposeLabels,
  taxModeLabels,
} from '../../../lib/request-labels.ts';
import { useDebouncedValue } from '../../../lib/use-debounced-value.ts';
import { useGoBack } from '../../../lib/use-go-back.ts';
import { paths } from '../../../paths.ts';
import { FileUploadArea } from '../../../components/files/components/file-upload-area.tsx';
import { useBudgetBalance } from '../api/check-budget-balance.ts';
import { useResubmitRequest } from '../api/resubmit-request.ts';
import { useSubmitRequest, type SubmitRequestBody } from '../api/submit-request.ts';
import { BudgetCodeSelect } from './budget-code-select.tsx';
import { fieldLabels, modeLabel, modesOf, modeText, supplierLabel } from './request-fields.ts';
import { organisationTodayDate } from '../../../lib/organisation-date.ts';
import { useOneAtATime } from '../../../lib/use-one-at-a-time.ts';
import { useKeptDraft } from '../../../lib/kept-drafts.ts';
import { RestoredDraftNotice } from '../../../components/restored-draft-notice.tsx';
import { requestDraftCodec } from './request-draft.ts';

/** Spec §8: a refused submission. */
const submitFailed = 'Error! Invalid data in request submitted';
/** Spec §5: an exclusive tax status must be explained. */
const taxExclusiveNote =
  'If tax status is exclusive, the tax status must be explained in the description.';
/** Spec §5 guidance shown with the purpose. */
const supportingDocumentsNote =
  'Supporting documents are encouraged for requests other than petty cash.';
const foodExpensesNote =
  'Food expenses are reimbursed afterwards on evidence. Major deviations from approved amounts may be rejected.';

/** How long the amount rests before the budget check runs, so typing does not flood the server. */
const balanceCheckDelayMs = 400;

export type RequestFormValues = {
  name: string;
  department: string;
  purpose?: RequestCategory;
  modeOfService?: string;
  supplier?: string;
  expenditureDate: Dayjs;
  expenditureJustification?: string;
  /** As typed, with thousands separators (the shared AmountInput keeps text). */
  amountRequired?: string;
  currency: Currency;
  budgetCode?: string;
  paymentMode: PaymentMethod;
  taxStatus: TaxMode;
  /** Stored names of the uploaded files (spec §3 file_paths). */
  filePaths: string[];
};

/** Spec §3 form defaults, or the request being edited. */
function initialValues(
  user: UserResponse,
  request: RequestResponse | undefined,
): RequestFormValues {
  const base = {
    name: user.fullname,
    department: departmentLabel(user.department),
    // A resubmission keeps the files of the version it replaces until they are removed.
    filePaths: request ? [...request.file_paths] : [],
  };
  if (!request) {
    return {
      ...base,
      expenditureDate: organisationTodayDate(),
      currency: 'tzs',
      paymentMode: 'cash',
      taxStatus: 'taxInclusive',
    };
  }
  const expenditureDate = dayjs(request.expenditure_date);
  return {
    ...base,
    purpose: request.purpose,
    modeOfService: request.mode_of_service ?? undefined,
    supplier: request.name_of_establishment ?? undefined,
    // A date that has passed meanwhile is not allowed again (spec §5): start from today.
    expenditureDate: expenditureDate.isBefore(organisationTodayDate(), 'day')
      ? organisationTodayDate()
      : expenditureDate,
    expenditureJustification: request.expenditure_justification,
    amountRequired: formatTypedAmount(String(request.amount_requested)),
    currency: request.amount_currency,
    budgetCode: request.budget_code,
    paymentMode: request.payment_mode,
    taxStatus: request.tax_status,
  };
}

/** The amount of the typed text, or null while nothing (readable) is typed. */
function amountOf(text: string | undefined): number | null {
  const value = parseTypedAmount(text ?? '');
  return Number.isFinite(value) ? value : null;
}

function payloadOf(values: RequestFormValues, user: UserResponse): SubmitRequestBody {
  return {
    amount_requested: amountOf(values.amountRequired) ?? 0,
    amount_currency: values.currency,
    department: user.department,
    purpose: values.purpose ?? 'other',
    expenditure_date: values.expenditureDate.format('YYYY-MM-DD'),
    tax_status: values.taxStatus,
    request_owner_name: user.fullname,
    request_owner_id: user.id,
    name_of_establishment: values.supplier?.trim() || null,
    expenditure_justification: values.expenditureJustification?.trim() ?? '',
    mode_of_service: modesOf(values.purpose).length > 0 ? (values.modeOfService ?? null) : null,
    budget_code: values.budgetCode ?? '',
    payment_mode: values.paymentMode,
    file_paths: values.filePaths,
  };
}

/** Spec §5: the calendar disallows dates before today, the organisation's (decisions/0004). */
function isBeforeToday(date: Dayjs): boolean {
  return date.isBefore(organisationTodayDate(), 'day');
}

type RequestFormProps = {
  user: UserResponse;
  /** The request returned for edits that this form resubmits (edit mode). */
  editing?: RequestResponse;
  onSubmitted: (request: RequestResponse) => void;
};

/**
 * The request form of spec §2–§5: new request, or the owner's resubmission of a request returned for
 * edits. Submit is hidden while the budget check finds the amount too large or the currency
 * different from the budget code's.
 */
export function RequestForm({ user, editing, onSubmitted }: RequestFormProps) {
  const [form] = Form.useForm<RequestFormValues>();
  const handleCancel = useGoBack(paths.dashboard.requests.getHref());
  const submit = useSubmitRequest();
  const resubmit = useResubmitRequest();
  // A double click or a second Enter sends the request once (useOneAtATime).
  const sendSubmit = useOneAtATime(submit);
  const sendResubmit = useOneAtATime(resubmit);
  const mutation = editing ? resubmit : submit;
  const [isUploading, setIsUploading] = useState(false);
  const isRestored = useKeptDraft(
    form,
    editing ? `resubmit-request:${editing.id}` : 'new-request',
    user.id,
    requestDraftCodec,
  );

  const purpose = Form.useWatch('purpose', form);
  const taxStatus = Form.useWatch('taxStatus', form);
  const currency = Form.useWatch('currency', form);
  const budgetCode = Form.useWatch('budgetCode', form);
  const amount = amountOf(Form.useWatch('amountRequired', form));
  // An amount above the money cap is more than any code holds, and the server's check refuses it:
  // the code's available amount, checked without one, is what it is compared with.
  const amountToCheck = amount !== null && amount > maxAmount ? null : amount;
  const checkedAmount = useDebouncedValue(amountToCheck, balanceCheckDelayMs);
  const balance = useBudgetBalance(budgetCode, checkedAmount);

  const modes = modesOf(purpose);
  // The chosen code's live figures (its last answer stays while a new amount is checked).
  const selectedBudget = budgetCode ? balance.data : undefined;

  // Spec §5: compare with the chosen code's available amount as soon as it is known; the
  // typed amount is compared at once, while its own check is still on the way. The currency comes
  // first, as on the server: an amount in another currency says nothing against the code's.
  let budgetProblem: string | null = null;
  if (budgetCode && balance.data) {
    if (currency && currency !== balance.data.currency) {
      budgetProblem = messages.currencyDiffers;
    } else if (amount !== null && amount > balance.data.available) {
      budgetProblem = messages.amountExceedsBalance;
    }
  }
  const isChecking = Boolean(budgetCode) && (balance.isFetching || checkedAmount !== amountToCheck);
  // Submit pressed while the amount's check is on its way waits for the answer, then sends the
  // form as it is then, unless the answer shows a problem. Submit used to be disabled meanwhile
  // (400 ms after each keystroke, and the call), and a click right after typing was lost.
  const [isSubmitQueued, setIsSubmitQueued] = useState(false);
  useEffect(() => {
    if (!isSubmitQueued || isChecking) return;
    setIsSubmitQueued(false);
    if (!budgetProblem) form.submit();
  }, [isSubmitQueued, isChecking, budgetProblem, form]);

  function handleFinish(values: RequestFormValues) {
    // Spec §5: files are uploaded first; the request names them once they are stored.
    if (isUploading) return;
    if (isChecking) {
      setIsSubmitQueued(true);
      return;
    }
    const body = payloadOf(values, user);
    const options = { onSuccess: onSubmitted };
    if (editing) sendResubmit({ ...body, parent_request: editing.id }, options);
    else sendSubmit(body, options);
  }

  function handlePurposeChange(next: RequestCategory) {
    const nextModes = modesOf(next);
    const current = form.getFieldValue('modeOfService') as string | undefined;
    if (!current || !nextModes.includes(current)) form.setFieldValue('modeOfService', undefined);
  }

  const half = { xs: 24, md: 12 };

  return (
    <Form<RequestFormValues>
      form={form}
      layout="vertical"
      initialValues={initialValues(user, editing)}
      onFinish={handleFinish}
      disabled={mutation.isPending}
      data-testid="request-form"
    >
      {isRestored && !mutation.isError ? <RestoredDraftNotice /> : null}
      {mutation.isError ? (
        <Alert
          type="error"
          showIcon
          title={submitFailed}
          description={mutation.error.message}
          style={{ marginBottom: 16 }}
          data-testid="request-submit-error"
        />
      ) : null}
      <Row gutter={16}>
        <Col {...half}>
          <Form.Item label={fieldLabels.name} name="name">
            <Input readOnly variant="filled" />
          </Form.Item>
        </Col>
        <Col {...half}>
          <Form.Item label={fieldLabels.department} name="department">
            <Input readOnly variant="filled" />
          </Form.Item>
        </Col>
        <Col {...half}>
          <Form.Item
            label={fieldLabels.purpose}
            name="purpose"
            rules={[{ required: true, message: 'Choose the purpose of the request' }]}
          >
            <Select<RequestCategory>
              placeholder="Select a purpose"
              onChange={handlePurposeChange}
              options={requestCategoryNames.map((name) => ({
                value: name,
                label: purposeLabels[name],
              }))}
            />
          </Form.Item>
        </Col>
        {modes.length > 0 ? (
          <Col {...half}>
            <Form.Item
              label={modeLabel(purpose)}
              name="modeOfService"
              rules={[
                { required: true, message: `Choose the ${modeLabel(purpose).toLowerCase()}` },
              ]}
            >
              <Select
                placeholder="Select an option"
                options={modes.map((mode) => ({ value: mode, label: modeText(mode) }))}
              />
            </Form.Item>
          </Col>
        ) : null}
        <Col {...half}>
          <Form.Item label={supplierLabel(purpose)} name="supplier">
            <Input maxLength={200} />
          </Form.Item>
        </Col>
        <Col {...half}>
          <Form.Item
            label={fieldLabels.expenditureDate}
            name="expenditureDate"
            rules={[
              { required: true, message: 'Choose the intended expenditure date' },
              {
                validator: async (_rule, value: Dayjs | null) => {
                  if (value && isBeforeToday(value))
                    throw new Error('The expenditure date cannot be before today.');
                },
              },
            ]}
          >
            <DatePicker
              style={{ width: '100%' }}
              format="DD/MM/YYYY"
              disabledDate={isBeforeToday}
              allowClear={false}
              inputReadOnly
            />
          </Form.Item>
        </Col>
        <Col xs={24}>
          {purpose && purpose !== 'pettyCash' ? (
            <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
              {supportingDocumentsNote}
            </Typography.Paragraph>
          ) : null}
          {purpose === 'meals' ? (
            <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
              {foodExpensesNote}
            </Typography.Paragraph>
          ) : null}
          <Form.Item
            label={fieldLabels.expenditureJustification}
            name="expenditureJustification"
            rules={[
              {
                required: taxStatus === 'taxExclusive',
                whitespace: true,
                message: taxExclusiveNote,
              },
            ]}
          >
            <Input.TextArea rows={4} maxLength={5000} showCount />
          </Form.Item>
        </Col>
        <Col {...half}>
          <Form.Item
            label={fieldLabels.amountRequired}
            name="amountRequired"
            rules={[
              { required: true, message: 'Enter the amount required' },
              {
                validator: async (_rule, value: string | undefined) => {
                  // The server's rule for an amount (more than zero, at most the money cap).
                  const typed = amountOf(value);
                  const checked = typed === null ? null : positiveAmount.safeParse(typed);
                  if (checked && !checked.success)
                    throw new Error(checked.error.issues[0]?.message);
                },
              },
            ]}
            extra={
              selectedBudget
                ? `Available in ${budgetCode}: ${formatAmount(selectedBudget.available, selectedBudget.currency)}`
                : undefined
            }
          >
            {/* Spec §5: digits only; an edited request keeps the cents it may have had. */}
            <AmountInput
              placeholder="0"
              aria-label={fieldLabels.amountRequired}
              allowDecimals={Boolean(editing && !Number.isInteger(editing.amount_requested))}
            />
          </Form.Item>
        </Col>
        <Col {...half}>
          <Form.Item label={fieldLabels.currency} name="currency" rules={[{ required: true }]}>
            <Select<Currency>
              options={currencies.map((value) => ({ value, label: currencyLabel(value) }))}
            />
          </Form.Item>
        </Col>
        <Col {...half}>
          <Form.Item
            label={fieldLabels.budgetCode}
            name="budgetCode"
            rules={[{ required: true, message: 'Choose a budget code' }]}
          >
            <BudgetCodeSelect current={editing?.budget} />
          </Form.Item>
        </Col>
        <Col {...half}>
          <Form.Item
            label={fieldLabels.paymentMode}
            name="paymentMode"
            rules={[{ required: true }]}
          >
            <Select<PaymentMethod>
              options={paymentMethods.map((value) => ({
                value,
                label: paymentMethodLabels[value],
              }))}
            />
          </Form.Item>
        </Col>
        <Col {...half}>
          <Form.Item label={fieldLabels.taxStatus} name="taxStatus" rules={[{ required: true }]}>
            <Select<TaxMode>
              options={taxModes.map((value) => ({ value, label: taxModeLabels[value] }))}
            />
          </Form.Item>
        </Col>
        {taxStatus === 'taxExclusive' ? (
          <Col xs={24}>
            <Alert
              type="info"
              showIcon
              title={taxExclusiveNote}
              style={{ marginBottom: 16 }}
              data-testid="tax-exclusive-note"
            />
          </Col>
        ) : null}
        <Col xs={24}>
          <Form.Item label={fieldLabels.attachments} name="filePaths">
            <FileUploadArea disabled={mutation.isPending} onUploadingChange={setIsUploading} />
          </Form.Item>
        </Col>
      </Row>
      {budgetProblem ? (
        <Alert
          type="error"
          showIcon
          title={budgetProblem}
          style={{ marginBottom: 16 }}
          data-testid="budget-problem"
        />
      ) : null}
      {balance.isError ? (
        <Alert type="warning" showIcon title={balance.error.message} style={{ marginBottom: 16 }} />
      ) : null}
      <Flex gap={12} justify="flex-end" align="center" wrap>
        {isUploading ? (
          <Typography.Text type="secondary" data-testid="uploads-pending">
            Waiting for the files to finish uploading…
          </Typography.Text>
        ) : null}
        <Button onClick={handleCancel} disabled={false}>
          Cancel
        </Button>
        {budgetProblem ? null : (
          <Button
            type="primary"
            htmlType="submit"
            loading={mutation.isPending || isSubmitQueued}
            disabled={isUploading && !mutation.isPending}
            data-testid="submit-request"
          >
            Submit
          </Button>
        )}
      </Flex>
    </Form>
  );
}
