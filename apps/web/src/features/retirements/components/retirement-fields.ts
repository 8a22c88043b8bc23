import type { RequestResponse } from '@imprest/domain/api/requests.ts';

/** Labels of the retirement form's fields (spec §3 Retirement form fields), shared by form and view. */
export const retirementFieldLabels = {
  name: 'Name',
  amountReceived: 'Amount Received',
  amount: 'Total Amount Spent',
  costCode: 'Cost Code',
  comments: 'Comments',
  documents: 'Retirement Documents',
  dueDate: 'Due Date',
  retirementDate: 'Retirement Date',
  cashToReturn: 'Cash to Return',
  reviewComments: 'Review Comments',
} as const;

/** The Cost Code field: the request's budget code and name, as the request form shows it. */
export function costCodeText(request: Pick<RequestResponse, 'budget'>): string {
  return `${request.budget.code} - ${request.budget.name}`;
}
