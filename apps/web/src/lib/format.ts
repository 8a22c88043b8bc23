import dayjs from 'dayjs';
import localizedFormat from 'dayjs/plugin/localizedFormat';
import './dayjs-locale.ts';

dayjs.extend(localizedFormat);

const numberFormat = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 2 });

/** A number with thousands separators (spec §9). */
export function formatNumber(value: number): string {
  return numberFormat.format(value);
}

/** An amount with its currency code, e.g. `TZS 1,500,000`. */
export function formatAmount(amount: number, currency: string): string {
  return `${currency.toUpperCase()} ${formatNumber(amount)}`;
}

/** A date in en-GB format (spec §9), e.g. `05/03/2026`. */
export function formatDate(value: string | Date | null | undefined): string {
  if (!value) return '';
  const date = dayjs(value);
  return date.isValid() ? date.format('L') : '';
}

/** A moment in en-GB format (spec §9), e.g. `05/03/2026 14:30`. */
export function formatDateTime(value: string | Date | null | undefined): string {
  if (!value) return '';
  const date = dayjs(value);
  return date.isValid() ? date.format('L LT') : '';
}

/** A status code in words: `on_progress` → `On progress`. */
export function humanize(value: string): string {
  const words = value.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
