import type { RequestItemResponse } from '@imprest/domain/api/requests.ts';
import { Button, Descriptions, Drawer, Flex } from 'antd';
import { StatusTag } from '../../../components/status-tag.tsx';
import { formatAmount, formatDateTime } from '../../../lib/format.ts';
import { fieldLabels, sharedRequestItems } from './request-fields.ts';

type RequestPreviewDrawerProps = {
  request: RequestItemResponse | null;
  onClose: () => void;
  onOpen: (request: RequestItemResponse) => void;
};

/** Spec §2 Requests list: a row opens this preview panel with the request's main fields. */
export function RequestPreviewDrawer({ request, onClose, onOpen }: RequestPreviewDrawerProps) {
  const shared = request ? sharedRequestItems(request) : null;
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
      {request && shared ? (
        <Descriptions
          column={1}
          size="small"
          bordered
          data-testid="request-preview"
          items={[
            shared.name,
            shared.department,
            shared.purpose,
            shared.supplier,
            shared.date,
            {
              key: 'amount',
              label: fieldLabels.amountRequired,
              children: formatAmount(request.amount_requested, request.amount_currency),
            },
            shared.budget,
            shared.payment,
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
