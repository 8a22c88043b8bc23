import dayjs, { type Dayjs } from 'dayjs';
import { organisationToday } from './organisation-day.ts';

/**
 * Today in the organisation's calendar as a day of the date pickers (its start, here). Apart from
 * organisation-day.ts so that the sign-in page, which sets the time zone, does not download dayjs.
 */
export function organisationTodayDate(): Dayjs {
  return dayjs(organisationToday());
}
