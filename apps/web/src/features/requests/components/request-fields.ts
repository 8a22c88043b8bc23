import { requestCategories, type RequestCategory } from '@imprest/domain/enums.ts';
import dayjs from 'dayjs';

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

/** A moment with date and time in the en-GB locale, e.g. `05/03/2026 14:30`. */
export function formatDateTime(value: string): string {
  const date = dayjs(value);
  return date.isValid() ? date.format('L LT') : '';
}
