import { defaultOrgTimezone } from '@imprest/domain/constants.ts';
import { todayIn } from '@imprest/domain/days.ts';

/**
 * The organisation's time zone, as the server answered it with the session (`time_zone`); its
 * default until then. "Today" is the organisation's calendar day wherever the browser is
 * (docs/decisions/0004): a form's default date must be a day the server accepts.
 */
let organisationTimeZone = defaultOrgTimezone;

/** Takes the time zone of a session's answer (sign-in, validation). */
export function setOrganisationTimeZone(timeZone: string): void {
  try {
    todayIn(timeZone);
    organisationTimeZone = timeZone;
  } catch {
    // A zone this browser does not know: keep the one it has.
  }
}

/** The organisation's time zone (IANA name). */
export function organisationZone(): string {
  return organisationTimeZone;
}

/** Today in the organisation's calendar, `YYYY-MM-DD`. */
export function organisationToday(): string {
  return todayIn(organisationTimeZone);
}
