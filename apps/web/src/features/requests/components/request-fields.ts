import type { RequestItemResponse } from '@imprest/domain/api/requests.ts';
import { requestCategories, type RequestCategory } from '@imprest/domain/enums.ts';
import { formatDate } from '../../../lib/format.ts';
import {
  departmentLabel,
  paymentMethodLabels,
  purposeLabels,
} from '../../../lib/request-labels.ts';

/** Labels of the request form's fields (spec §3 form fields), shared by the form and the view. */
export const fieldLabels = {
  name: 'Name',
  department: 'Department',
  purpose: 'Purpose',
  expenditureDate: 'Intended Expenditure Date',
  expenditureJustification: 'Expenditure Justification',
  amountRequired: 'Amount Required',
  currency: 'Currency',
  budgetCode: 'Budget Code',
  paymentMode: 'Means of Payment',
  taxStatus: 'Tax Status',
  attachments: 'Attachments',
} as const;

const modeLabels: Partial<Record<RequestCategory, string>> = {
  travel: 'Mode of Transport',
  accomodation: 'Type of Accommodation',
  meals: 'Type of Meals',
  kits: 'Type of Kits',
  stemPark: 'Destination',
  procurement: 'Type of Procurement',
};

/** The label of the destination / mode field, which depends on the purpose (spec §2). */
export function modeLabel(purpose: RequestCategory | undefined): string {
  return (purpose && modeLabels[purpose]) || 'Mode of Service';
}

/** The modes of service a purpose offers; empty when it has none. */
export function modesOf(purpose: RequestCategory | undefined): readonly string[] {
  return purpose ? requestCategories[purpose].modes : [];
}

/** A mode of service as shown: 'goods' → 'Goods'. */
export function modeText(mode: string): string {
  return mode.charAt(0).toUpperCase() + mode.slice(1);
}

/** The supplier field's label, e.g. 'Name of Transporter' for travel (spec §3). */
export function supplierLabel(purpose: RequestCategory | undefined): string {
  return purpose ? requestCategories[purpose].supplierLabel : 'Name of Establishment';
}

/** A budget code as the form shows it: `code - name` (spec §2). */
export function budgetCodeLabel(budget: { code: string; name: string }): string {
  return `${budget.code} - ${budget.name}`;
}

type DescribedRequest = Pick<
  RequestItemResponse,
  | 'request_owner_name'
  | 'department'
  | 'purpose'
  | 'name_of_establishment'
  | 'expenditure_date'
  | 'budget'
  | 'payment_mode'
>;

/** The fields the request view and the list's preview panel both show, as Descriptions items. */
export function sharedRequestItems(request: DescribedRequest) {
  return {
    name: { key: 'name', label: fieldLabels.name, children: request.request_owner_name },
    department: {
      key: 'department',
      label: fieldLabels.department,
      children: departmentLabel(request.department),
    },
    purpose: {
      key: 'purpose',
      label: fieldLabels.purpose,
      children: purposeLabels[request.purpose],
    },
    supplier: {
      key: 'supplier',
      label: supplierLabel(request.purpose),
      children: request.name_of_establishment ?? '—',
    },
    date: {
      key: 'date',
      label: fieldLabels.expenditureDate,
      children: formatDate(request.expenditure_date),
    },
    budget: {
      key: 'budget',
      label: fieldLabels.budgetCode,
      children: budgetCodeLabel(request.budget),
    },
    payment: {
      key: 'payment',
      label: fieldLabels.paymentMode,
      children: paymentMethodLabels[request.payment_mode],
    },
  };
}
