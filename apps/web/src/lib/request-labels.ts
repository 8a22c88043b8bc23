import {
  departmentLabels,
  labelOf,
  paymentMethodLabels,
  requestCategoryLabels,
  type Currency,
  type StatusFilter,
  type TaxMode,
} from '@imprest/domain/enums.ts';

/** Request purposes as people read them (spec §3 request categories). */
export const purposeLabels = requestCategoryLabels;

/** A purpose label, tolerating values this build does not know. */
export function purposeLabel(purpose: string): string {
  return labelOf(purposeLabels, purpose);
}

/** Spec §9: currency tzs has the label TZS; the others follow suit. */
export function currencyLabel(currency: Currency | string): string {
  return currency.toUpperCase();
}

export { paymentMethodLabels };

export const taxModeLabels: Record<TaxMode, string> = {
  taxInclusive: 'Tax Inclusive',
  taxExclusive: 'Tax Exclusive',
};

export const statusFilterLabels: Record<StatusFilter, string> = {
  all: 'All',
  pending: 'Pending',
  on_progress: 'On Progress',
  approved: 'Approved',
  rejected: 'Rejected',
};

/** A user's department in words, tolerating values this build does not know. */
export function departmentLabel(department: string): string {
  return labelOf(departmentLabels, department);
}
