import type { RequestResponse } from '@imprest/domain/api/requests.ts';
import type { RetirementResponse } from '@imprest/domain/api/retirements.ts';
import { cashToReturn, parseRetirementAmount } from '@imprest/domain/retirements.ts';
import { Alert, Button, Col, Flex, Form, Input, Row, Typography } from 'antd';
import { useState } from 'react';
import { AmountInput, formatTypedAmount } from '../../../components/amount-input.tsx';
import { FileUploadArea } from '../../../components/files/components/file-upload-area.tsx';
import { formatAmount } from '../../../lib/format.ts';
import { currencyLabel } from '../../../lib/request-labels.ts';
import { useSubmitRetirement } from '../api/submit-retirement.ts';
import { costCodeText, retirementFieldLabels as labels } from './retirement-fields.ts';
import { useOneAtATime } from '../../../lib/use-one-at-a-time.ts';
import { useKeptDraft } from '../../../lib/kept-drafts.ts';
import { RestoredDraftNotice } from '../../../components/restored-draft-notice.tsx';
import { z } from 'zod';

/** Spec §2 Retirement form, edit mode. */
const documentsBanner = 'To complete your request you are expected to add the retirement documents';

type RetirementFormValues = {
  name: string;
  amountReceived: string;
  /** As typed, with thousands separators; commas are removed and empty counts as 0 (spec §5). */
  amount?: string;
  costCode: string;
  comments?: string;
  /** Stored names of the uploaded receipts (spec §3 file_paths). */
  filePaths: string[];
};

/** What the form keeps of its input across a session the server ends (lib/kept-drafts). */
const keptRetirement = z
  .object({ amount: z.string(), comments: z.string(), filePaths: z.array(z.string()) })
  .partial();

const retirementDraftCodec = {
  keep: ({ amount, comments, filePaths }: RetirementFormValues): unknown => ({
    amount,
    comments,
    filePaths,
  }),
  restore: (kept: unknown): Partial<RetirementFormValues> | null => {
    const parsed = keptRetirement.safeParse(kept);
    return parsed.success ? parsed.data : null;
  },
};

/**
 * What the amount typed leaves, under the field as the owner types: the cash to return (what the
 * reviewer will mark as returned, spec §2), or how much more than received was spent. Nothing
 * while the amount is not a number: the field's error says so.
 */
function spentHint(retirement: RetirementResponse, typed: string | undefined): string | null {
  if (!typed?.trim()) return 'Leave empty if nothing was spent.';
  const spent = parseRetirementAmount(typed);
  if (Number.isNaN(spent)) return null;
  const currency = retirement.amount_currency;
  const leftOver = cashToReturn(retirement.amountReceived, spent);
  if (leftOver > 0) return `${labels.cashToReturn}: ${formatAmount(leftOver, currency)}`;
  // The same difference the other way round.
  const over = cashToReturn(spent, retirement.amountReceived);
  if (over > 0) return `${formatAmount(over, currency)} more than the amount received`;
  return 'All of the amount received was spent: nothing to return.';
}

/** The form's values: a resubmission starts from what was submitted before (spec §4). */
function initialValues(request: RequestResponse, retirement: RetirementResponse) {
  return {
    name: retirement.name,
    amountReceived: formatAmount(retirement.amountReceived, retirement.amount_currency),
    amount:
      retirement.amount_spent === null
        ? undefined
        : formatTypedAmount(String(retirement.amount_spent)),
    costCode: costCodeText(request),
    comments: retirement.comments ?? undefined,
    filePaths: [...retirement.file_paths],
  } satisfies RetirementFormValues;
}

type RetirementEditFormProps = {
  request: RequestResponse;
  retirement: RetirementResponse;
  onSubmitted: () => void;
};

/**
 * The owner's retirement form (spec §2 edit mode, §5): the total spent, comments for the reviewers
 * and the receipts, which upload as they are chosen so the retirement names them once stored.
 */
export function RetirementEditForm({ request, retirement, onSubmitted }: RetirementEditFormProps) {
  const [form] = Form.useForm<RetirementFormValues>();
  const submit = useSubmitRetirement({ onSubmitted });
  const sendSubmit = useOneAtATime(submit);
  const [isUploading, setIsUploading] = useState(false);
  const isRestored = useKeptDraft(
    form,
    `retirement:${retirement.id}`,
    request.request_owner_id,
    retirementDraftCodec,
  );

  function handleFinish(values: RetirementFormValues) {
    // Spec §5: files are uploaded first; the retirement names them once they are stored.
    if (isUploading) return;
    sendSubmit({
      id: retirement.id,
      amount_spent: parseRetirementAmount(values.amount ?? ''),
      amount_currency: retirement.amount_currency,
      comments: values.comments?.trim() ?? '',
      file_paths: values.filePaths,
    });
  }

  const half = { xs: 24, md: 12 };
  const typedAmount = Form.useWatch('amount', form);

  return (
    <Form<RetirementFormValues>
      form={form}
      layout="vertical"
      initialValues={initialValues(request, retirement)}
      onFinish={handleFinish}
      disabled={submit.isPending}
      data-testid="retirement-form"
    >
      <Alert
        type="info"
        showIcon
        title={documentsBanner}
        style={{ marginBottom: 16 }}
        data-testid="retirement-documents-banner"
      />
      {isRestored && !submit.isError ? <RestoredDraftNotice /> : null}
      {submit.isError ? (
        <Alert
          type="error"
          showIcon
          title="The retirement could not be submitted."
          description={submit.error.message}
          style={{ marginBottom: 16 }}
          data-testid="retirement-submit-error"
        />
      ) : null}
      <Row gutter={16}>
        <Col {...half}>
          <Form.Item label={labels.name} name="name">
            <Input readOnly variant="filled" />
          </Form.Item>
        </Col>
        <Col {...half}>
          <Form.Item label={labels.costCode} name="costCode">
            <Input readOnly variant="filled" />
          </Form.Item>
        </Col>
        <Col {...half}>
          <Form.Item label={labels.amountReceived} name="amountReceived">
            <Input readOnly variant="filled" />
          </Form.Item>
        </Col>
        <Col {...half}>
          <Form.Item
            label={labels.amount}
            name="amount"
            rules={[
              {
                validator: async (_rule, value: string | undefined) => {
                  if (Number.isNaN(parseRetirementAmount(value ?? '')))
                    throw new Error('Enter the amount spent, e.g. 1,250,000');
                },
              },
            ]}
            extra={spentHint(retirement, typedAmount)}
          >
            <AmountInput
              placeholder="0"
              aria-label={labels.amount}
              prefix={currencyLabel(retirement.amount_currency)}
            />
          </Form.Item>
        </Col>
        <Col xs={24}>
          <Form.Item label={labels.comments} name="comments">
            <Input.TextArea rows={3} maxLength={5000} showCount />
          </Form.Item>
        </Col>
        <Col xs={24}>
          <Form.Item label={labels.documents} name="filePaths">
            <FileUploadArea disabled={submit.isPending} onUploadingChange={setIsUploading} />
          </Form.Item>
        </Col>
      </Row>
      <Flex gap={12} justify="flex-end" align="center" wrap>
        {isUploading ? (
          <Typography.Text type="secondary" data-testid="uploads-pending">
            Waiting for the files to finish uploading…
          </Typography.Text>
        ) : null}
        <Button
          type="primary"
          htmlType="submit"
          loading={submit.isPending}
          disabled={isUploading && !submit.isPending}
          data-testid="submit-retirement"
        >
          Submit Retirement
        </Button>
      </Flex>
    </Form>
  );
}
