import type { RequestItemResponse } from '@imprest/domain/api/requests.ts';
import { Button, Descriptions, Drawer, Flex } from 'antd';
import { StatusTag } from '../../../components/status-tag.tsx';
import { formatDate, formatNumber } from '../../../lib/format.ts';
import {
  currencyLabel,
  departmentLabel,
  paymentMethodLabels,
  purposeLabels,
} from '../../../lib/request-labels.ts';
import { budgetCodeLabel, fieldLabels, formatDateTime, supplierLabel } from './request-fields.ts';

type RequestPreviewDrawerProps = {
  request: RequestItemResponse | null;
  onClose: () => void;
  onOpen: (request: RequestItemResponse) => void;
};

/** Spec §2 Requests list: a row opens this preview panel with the request's main fields. */
export function RequestPreviewDrawer({ request, onClose, onOpen }: RequestPreviewDrawerProps) {
  return (
    <Drawer
      open={Boolean(request)}
      onClose={onClose}
      title="Request Preview"
      size={480}
      destroyOnHidden
      footer={
        request ? (
          <Flex justify="flex-end" gap={8}>
            <Button onClick={onClose}>Close</Button>
            <Button type="primary" onClick={() => onOpen(request)}>
              View Request
            </Button>
          </Flex>
        ) : null
      }
    >
      {request ? (
        <Descriptions
          column={1}
          size="small"
          bordered
          data-testid="request-preview"
          items={[
            { key: 'name', label: fieldLabels.name, children: request.request_owner_name },
            {
              key: 'department',
              label: fieldLabels.department,
              children: departmentLabel(request.department),
            },
            {
              key: 'purpose',
              label: fieldLabels.purpose,
              children: purposeLabels[request.purpose],
            },
            {
              key: 'supplier',
              label: supplierLabel(request.purpose),
              children: request.name_of_establishment ?? '—',
            },
            {
              key: 'date',
              label: fieldLabels.expenditureDate,
              children: formatDate(request.expenditure_date),
            },
            {
              key: 'amount',
              label: fieldLabels.amountRequired,
              children: `${currencyLabel(request.amount_currency)} ${formatNumber(request.amount_requested)}`,
            },
            {
              key: 'budget',
              label: fieldLabels.budgetCode,
              children: budgetCodeLabel(request.budget),
            },
            {
              key: 'payment',
              label: fieldLabels.paymentMode,
              children: paymentMethodLabels[request.payment_mode],
            },
            {
              key: 'status',
              label: 'Status',
              children: <StatusTag status={request.current_status} />,
            },
            ...(request.approval_number
              ? [{ key: 'approval', label: 'Approval Number', children: request.approval_number }]
              : []),
            { key: 'created', label: 'Submitted', children: formatDateTime(request.created_at) },
          ]}
        />
      ) : null}
    </Drawer>
  );
}
