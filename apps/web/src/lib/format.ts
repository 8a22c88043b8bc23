import dayjs, { type Dayjs } from 'dayjs';
import localizedFormat from 'dayjs/plugin/localizedFormat';
import './dayjs-locale.ts';
import { organisationZone } from './organisation-day.ts';
import { formatRate as domainFormatRate } from '@imprest/domain/exchange-rates.ts';
import { amountWithCurrency, formatAmountNumber } from '@imprest/domain/money.ts';

dayjs.extend(localizedFormat);

/** A number with thousands separators (spec §9): the domain's, as the server's e-mails write it. */
export const formatNumber: (value: number) => string = formatAmountNumber;

/** An exchange rate with thousands separators and every decimal it keeps (docs/decisions/0013). */
export const formatRate: (value: number) => string = domainFormatRate;

/**
 * An amount with its currency code, e.g. `TZS 1,500,000`: the domain's one way of writing an
 * amount, so a page reads as the e-mail about it does.
 */
export const formatAmount: (amount: number, currency: string) => string = amountWithCurrency;

const wallClocks = new Map<string, Intl.DateTimeFormat>();

/**
 * A value as the organisation's clock reads it: a moment (a Date, or a timestamp with a time) in
 * its time zone, wherever the browser is, as the server's downloads and the audit filters read it;
 * a calendar day (`YYYY-MM-DD`) as it is.
 */
function organisationClock(value: string | Date): Dayjs {
  if (typeof value === 'string' && !value.includes('T')) return dayjs(value);
  const moment = new Date(value);
  if (Number.isNaN(moment.getTime())) return dayjs(Number.NaN);
  const zone = organisationZone();
  let format = wallClocks.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    wallClocks.set(zone, format);
  }
  const part = Object.fromEntries(format.formatToParts(moment).map((p) => [p.type, p.value]));
  return dayjs(`${part.year}-${part.month}-${part.day}T${part.hour}:${part.minute}:${part.second}`);
}

/** A date in en-GB format (spec §9), e.g. `05/03/2026`, on the organisation's calendar. */
export function formatDate(value: string | Date | null | undefined): string {
  if (!value) return '';
  const date = organisationClock(value);
  return date.isValid() ? date.format('L') : '';
}

/** A moment in en-GB format (spec §9), e.g. `05/03/2026 14:30`, on the organisation's clock. */
export function formatDateTime(value: string | Date | null | undefined): string {
  if (!value) return '';
  const date = organisationClock(value);
  return date.isValid() ? date.format('L LT') : '';
}
