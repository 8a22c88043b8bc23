import type { RequestResponse } from '@imprest/domain/api/requests.ts';
import type { RetirementResponse } from '@imprest/domain/api/retirements.ts';
import { cashToReturn } from '@imprest/domain/retirements.ts';
import { Descriptions, Tag, type DescriptionsProps } from 'antd';
import { useState } from 'react';
import { AttachmentList } from '../../../components/files/components/attachment-list.tsx';
import { FilePreviewDialog } from '../../../components/files/components/file-preview-dialog.tsx';
import { formatAmount, formatDate } from '../../../lib/format.ts';
import { costCodeText, retirementFieldLabels as labels } from './retirement-fields.ts';
import { WrittenText } from '../../../components/written-text.tsx';

const columns = { xs: 1, sm: 2, md: 2, lg: 3, xl: 3, xxl: 3 };

type RetirementDetailsProps = { request: RequestResponse; retirement: RetirementResponse };

/** The retirement form's values, read-only (spec §2: preview, and what a reviewer weighs). */
export function RetirementDetails({ request, retirement }: RetirementDetailsProps) {
  // The dialog lives outside the table: Descriptions re-lays its cells out on resize, which would
  // re-mount a dialog kept inside one and close it.
  const [previewName, setPreviewName] = useState<string | null>(null);
  const currency = retirement.amount_currency;
  const leftOver = cashToReturn(retirement.amountReceived, retirement.amount_spent);

  const items: NonNullable<DescriptionsProps['items']> = [
    { key: 'name', label: labels.name, children: retirement.name },
    { key: 'cost-code', label: labels.costCode, children: costCodeText(request) },
    {
      key: 'received',
      label: labels.amountReceived,
      children: (
        <span data-testid="amount-received">
          {formatAmount(retirement.amountReceived, currency)}
        </span>
      ),
    },
    {
      key: 'spent',
      label: labels.amount,
      children: (
        <span data-testid="amount-spent">
          {retirement.amount_spent === null ? '—' : formatAmount(retirement.amount_spent, currency)}
        </span>
      ),
    },
    {
      key: 'date',
      label: retirement.retirement_date ? labels.retirementDate : labels.dueDate,
      children: formatDate(retirement.retirement_date ?? retirement.due_date),
    },
    {
      key: 'comments',
      label: labels.comments,
      span: columns,
      children: <WrittenText>{retirement.comments || '—'}</WrittenText>,
    },
    {
      key: 'documents',
      label: labels.documents,
      span: columns,
      children:
        retirement.file_paths.length > 0 ? (
          <AttachmentList fileNames={retirement.file_paths} onOpen={setPreviewName} />
        ) : (
          '—'
        ),
    },
  ];
  // Before the owner submits, nothing is known to be left over.
  if (retirement.amount_spent !== null) {
    items.splice(4, 0, {
      key: 'cash',
      label: labels.cashToReturn,
      children: (
        <>
          {formatAmount(leftOver, currency)}{' '}
          {retirement.is_funds_returned ? (
            <Tag color="success" data-testid="funds-returned">
              Returned
            </Tag>
          ) : null}
        </>
      ),
    });
  }

  return (
    <>
      <Descriptions
        bordered
        size="small"
        layout="vertical"
        column={columns}
        items={items}
        data-testid="retirement-details"
      />
      <FilePreviewDialog fileName={previewName} onClose={() => setPreviewName(null)} />
    </>
  );
}
