import {
  currencies,
  paymentMethods,
  requestCategoryNames,
  taxModes,
} from '@imprest/domain/enums.ts';
import dayjs from 'dayjs';
import { z } from 'zod';
import { organisationTodayDate } from '../../../lib/organisation-date.ts';
import type { RequestFormValues } from './request-form.tsx';

/** What the request form keeps of its input across a session the server ends (lib/kept-drafts). */
const keptRequest = z
  .object({
    purpose: z.enum(requestCategoryNames),
    modeOfService: z.string(),
    supplier: z.string(),
    expenditureDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    expenditureJustification: z.string(),
    amountRequired: z.string(),
    currency: z.enum(currencies),
    budgetCode: z.string(),
    paymentMode: z.enum(paymentMethods),
    taxStatus: z.enum(taxModes),
    filePaths: z.array(z.string()),
  })
  .partial();

export const requestDraftCodec = {
  keep: (values: RequestFormValues): unknown => ({
    ...values,
    expenditureDate: values.expenditureDate?.format('YYYY-MM-DD'),
  }),
  restore: (kept: unknown): Partial<RequestFormValues> | null => {
    const parsed = keptRequest.safeParse(kept);
    if (!parsed.success) return null;
    const { expenditureDate, ...rest } = parsed.data;
    const date = expenditureDate ? dayjs(expenditureDate) : null;
    // A date that has passed meanwhile is not allowed again (spec §5): today's stays.
    const isAllowed = date?.isValid() && !date.isBefore(organisationTodayDate(), 'day');
    return { ...rest, ...(isAllowed && date ? { expenditureDate: date } : {}) };
  },
};
