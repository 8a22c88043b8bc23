import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import { retirementDueDays } from './constants.ts';

dayjs.extend(utc);

const dayPattern = /^\d{4}-\d{2}-\d{2}$/;

function checkedDay(name: string, value: string): string {
  if (!dayPattern.test(value) || dayjs.utc(value).format('YYYY-MM-DD') !== value) {
    throw new RangeError(`${name} must be a date as YYYY-MM-DD`);
  }
  return value;
}

/**
 * The due date of a retirement attached on `attachDate` to a request spent on `expenditureDate`
 * (decisions §4): the later of the two days plus retirementDueDays, as `YYYY-MM-DD`.
 */
export function retirementDueDate(expenditureDate: string, attachDate: string): string {
  const spent = checkedDay('expenditureDate', expenditureDate);
  const attached = checkedDay('attachDate', attachDate);
  // YYYY-MM-DD texts compare in calendar order.
  const later = spent > attached ? spent : attached;
  // Calendar arithmetic in UTC, so no daylight-saving shift can move the day.
  return dayjs.utc(later).add(retirementDueDays, 'day').format('YYYY-MM-DD');
}
