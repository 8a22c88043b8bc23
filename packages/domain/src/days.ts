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

/** A calendar day (`2026-03-05`) as en-GB writes it (spec §9): `05/03/2026`; other text as it is. */
export function dayText(day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  return match ? `${match[3]}/${match[2]}/${match[1]}` : day;
}

/** A moment as a clock in `timeZone` reads it, in en-GB: `05/03/2026 14:30`. */
export function clockText(timeZone: string, at: Date): string {
  const { year, month, day, hour, minute } = clockIn(timeZone, at);
  return `${twoDigits(day)}/${twoDigits(month)}/${year} ${twoDigits(hour)}:${twoDigits(minute)}`;
}

/** Today's calendar day in a time zone. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  const { year, month, day } = clockIn(timeZone, now);
  return `${String(year).padStart(4, '0')}-${twoDigits(month)}-${twoDigits(day)}`;
}

/** The calendar year in a time zone (the year of an approval number). */
export function yearIn(timeZone: string, now: Date = new Date()): number {
  return clockIn(timeZone, now).year;
}
