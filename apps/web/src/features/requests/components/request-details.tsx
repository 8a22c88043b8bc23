import type { RequestResponse } from '@imprest/domain/api/requests.ts';
import { Descriptions, type DescriptionsProps } from 'antd';
import { useState } from 'react';
import { formatNumber } from '../../../lib/format.ts';
import { currencyLabel, taxModeLabels } from '../../../lib/request-labels.ts';
import { AttachmentList } from '../../../components/files/components/attachment-list.tsx';
import { FilePreviewDialog } from '../../../components/files/components/file-preview-dialog.tsx';
import { fieldLabels, modeLabel, modesOf, modeText, sharedRequestItems } from './request-fields.ts';
import { WrittenText } from '../../../components/written-text.tsx';

const columns = { xs: 1, sm: 2, md: 2, lg: 3, xl: 3, xxl: 3 };

type RequestDetailsProps = { request: RequestResponse };

/** The request form's content, read-only (spec §2 Request view). */
export function RequestDetails({ request }: RequestDetailsProps) {
  // The dialog lives outside the table: Descriptions re-lays its cells out on resize, which would
  // re-mount a dialog kept inside one and close it.
  const [previewName, setPreviewName] = useState<string | null>(null);
  const shared = sharedRequestItems(request);
  const items: DescriptionsProps['items'] = [shared.name, shared.department, shared.purpose];
  if (modesOf(request.purpose).length > 0) {
    items.push({
      key: 'mode',
      label: modeLabel(request.purpose),
      children: request.mode_of_service ? modeText(request.mode_of_service) : '—',
    });
  }
  items.push(
    shared.supplier,
    shared.date,
    {
      key: 'amount',
      label: fieldLabels.amountRequired,
      children: <span data-testid="request-amount">{formatNumber(request.amount_requested)}</span>,
    },
    {
      key: 'currency',
      label: fieldLabels.currency,
      children: currencyLabel(request.amount_currency),
    },
    shared.budget,
    shared.payment,
    { key: 'tax', label: fieldLabels.taxStatus, children: taxModeLabels[request.tax_status] },
    {
      key: 'justification',
      label: fieldLabels.expenditureJustification,
      span: columns,
      children: <WrittenText>{request.expenditure_justification || '—'}</WrittenText>,
    },
    {
      key: 'attachments',
      label: fieldLabels.attachments,
      span: columns,
      children:
        request.file_paths.length > 0 ? (
          <AttachmentList fileNames={request.file_paths} onOpen={setPreviewName} />
        ) : (
          '—'
        ),
    },
  );

  return (
    <>
      <Descriptions
        bordered
        size="small"
        layout="vertical"
        column={columns}
        items={items}
        data-testid="request-details"
      />
      <FilePreviewDialog fileName={previewName} onClose={() => setPreviewName(null)} />
    </>
  );
}
