/** Calendar days and clocks in a time zone, with nothing but Intl (the web's first script imports it). */

/** What a clock in a time zone reads at a moment. */
export type ClockReading = {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
};

/**
 * One Intl formatter per time zone, made once: dayjs's tz() builds its answer through several
 * formatter calls and parses, a few percent of a write's CPU under load (issue 13).
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The calendar day and time a clock in `timeZone` reads at a moment. */
export function clockIn(timeZone: string, now: Date = new Date()): ClockReading {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  const reading: ClockReading = { year: 0, month: 1, day: 1, hour: 0, minute: 0, second: 0 };
  for (const { type, value } of formatter.formatToParts(now)) {
    if (type in reading) reading[type as keyof ClockReading] = Number(value);
  }
  return reading;
}

const twoDigits = (value: number) => String(value).padStart(2, '0');

/** Today's calendar day in a time zone. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  const { year, month, day } = clockIn(timeZone, now);
  return `${String(year).padStart(4, '0')}-${twoDigits(month)}-${twoDigits(day)}`;
}

/** The calendar year in a time zone (the year of an approval number). */
export function yearIn(timeZone: string, now: Date = new Date()): number {
  return clockIn(timeZone, now).year;
}
