/** Business constants of spec §9, named once. */
export const searchDebounceMs = 1000;
export const defaultPageSize = 10;
export const pageSizeOptions = [10, 20, 50, 100] as const;
export const maxPageSize = 100;
/** The page-size changer shows only above this many rows. */
export const pageSizeChangerThreshold = 50;
/**
 * A list search counts its matches up to this many (docs/decisions/0006): past it the list says
 * `total_capped` and reports this number, the way search engines say "1,000+".
 */
export const searchCountLimit = 1000;
export const retirementPageSize = 15;
export const approvalThreshold = 150_000_000;
export const costCodeMin = 1;
export const costCodeMax = 99;
export const retirementGraceDays = 30;
/** Spec §9: the retirement warning escalates 2 weeks past the due date. */
export const retirementEscalationDays = 14;
export const retirementDueDays = 14;
export const fileNamePrefixLength = 7;
export const maxFileBytes = 20 * 1024 * 1024;
export const minPasswordLength = 8;
/** Breakpoints in px (spec §9). */
export const breakpoints = { tablet: 768, laptop: 992, desktop: 1170 } as const;
/** At most this many users in one `POST users` (docs/decisions/0010). */
export const maxUsersPerImport = 10_000;
/** Days an invitation link stays valid (docs/decisions/0010). */
export const invitationDays = 7;
/** ORG_TIMEZONE when unset: the organisation's calendar, whose "today" every date rule reads. */
export const defaultOrgTimezone = 'Africa/Dar_es_Salaam';
