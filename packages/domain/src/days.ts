/** Calendar days in a time zone, with nothing but Intl (the web's first script imports it). */

/**
 * One Intl formatter of calendar days per time zone, made once: dayjs's tz() builds its answer
 * through several formatter calls and parses, a few percent of a write's CPU under load (issue 13).
 */
const dayFormatters = new Map<string, Intl.DateTimeFormat>();

function dayPartsIn(timeZone: string, now: Date): { year: string; month: string; day: string } {
  let formatter = dayFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    dayFormatters.set(timeZone, formatter);
  }
  const parts = { year: '', month: '', day: '' };
  for (const part of formatter.formatToParts(now)) {
    if (part.type === 'year' || part.type === 'month' || part.type === 'day') {
      parts[part.type] = part.value;
    }
  }
  return parts;
}

/** Today's calendar day in a time zone. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  const { year, month, day } = dayPartsIn(timeZone, now);
  return `${year.padStart(4, '0')}-${month}-${day}`;
}

/** The calendar year in a time zone (the year of an approval number). */
export function yearIn(timeZone: string, now: Date = new Date()): number {
  return Number(dayPartsIn(timeZone, now).year);
}
