/** Enumerations of spec §3, written once for server and web. */

export const roles = [
  'staff',
  'admin',
  'petty_cash_custodian',
  'stem_park_manager',
  'finance_officer',
  'executive_secretary',
  'director',
  'board_chairman',
] as const;
export type Role = (typeof roles)[number];

export const roleLabels: Record<Role, string> = {
  staff: 'Staff',
  admin: 'Admin',
  petty_cash_custodian: 'Petty Cash Custodian',
  stem_park_manager: 'Stem Park Manager',
  finance_officer: 'Finance Officer',
  executive_secretary: 'Executive Secretary',
  director: 'Director',
  board_chairman: 'Board Chairman',
};

/**
 * Made on first use, not as the module loads: the first Intl object a page makes loads the
 * browser's locale data (30–80 ms on this machine), which the sign-in page never needs (issue 13).
 */
let conjunction: Intl.ListFormat | undefined;

/** Positions as British English lists them: "Finance Officer and Executive Secretary". */
export function roleListText(roles: readonly Role[]): string {
  conjunction ??= new Intl.ListFormat('en-GB', { type: 'conjunction' });
  return conjunction.format(roles.map((role) => roleLabels[role]));
}

/** Account roles of the user form (decisions §3: kept consistent with the position). */
export const systemRoles = ['admin', 'staff', 'director'] as const;
export type SystemRole = (typeof systemRoles)[number];

export const systemRoleLabels: Record<SystemRole, string> = {
  admin: 'Admin',
  staff: 'Staff',
  director: 'Director',
};

export const departments = [
  'administration',
  'accounting',
  'content',
  'engineering',
  'finance',
  'it',
  'marketing',
  'graphics',
  'procurement',
  'outreach',
  'risingStemStars',
  'stemKits',
  'youthBootcamps',
] as const;
export type Department = (typeof departments)[number];

/** Departments as people read them: on the pages and in downloads. */
export const departmentLabels: Record<Department, string> = {
  administration: 'Administration',
  accounting: 'Accounting',
  content: 'Content',
  engineering: 'Engineering',
  finance: 'Finance',
  it: 'IT',
  marketing: 'Marketing',
  graphics: 'Graphics',
  procurement: 'Procurement',
  outreach: 'Outreach',
  risingStemStars: 'Rising Stem Stars',
  stemKits: 'Stem Kits',
  youthBootcamps: 'Youth Bootcamps',
};

export const currencies = ['tzs', 'usd', 'gbp', 'chf'] as const;
export type Currency = (typeof currencies)[number];
export const baseCurrency: Currency = 'tzs';

export const paymentMethods = ['cash', 'bank_transfer', 'cheque'] as const;
export type PaymentMethod = (typeof paymentMethods)[number];

/** Means of payment as people read them: on the pages and in downloads. */
export const paymentMethodLabels: Record<PaymentMethod, string> = {
  cash: 'Cash',
  bank_transfer: 'Bank Transfer',
  cheque: 'Cheque',
};

export const taxModes = ['taxInclusive', 'taxExclusive'] as const;
export type TaxMode = (typeof taxModes)[number];

/** Request purposes with their modes of service and, where the spec gives one, the supplier label. */
export const requestCategories = {
  travel: {
    modes: ['public', 'company', 'self-drive', 'air transport'],
    supplierLabel: 'Name of Transporter',
  },
  accomodation: {
    modes: ['hotel', 'hostel', 'camp', 'other'],
    supplierLabel: 'Name of Establishment',
  },
  meals: { modes: ['catering', 'grocery', 'other'], supplierLabel: 'Name of Establishment' },
  pettyCash: { modes: [], supplierLabel: 'Name of Establishment' },
  kits: { modes: ['product', 'support', 'other'], supplierLabel: 'Name of Supplier' },
  risingSteamStars: { modes: [], supplierLabel: 'Name of Establishment' },
  stemPark: {
    modes: ['hq', 'Tanga', 'Dar es Salaam', 'other'],
    supplierLabel: 'Name of Establishment',
  },
  procurement: { modes: ['goods', 'services'], supplierLabel: 'Name of Supplier' },
  other: { modes: [], supplierLabel: 'Name of Establishment' },
} as const satisfies Record<string, { modes: readonly string[]; supplierLabel: string }>;
export type RequestCategory = keyof typeof requestCategories;
/** Request purposes as people read them ('accomodation', the spec's key, reads 'Accommodation'). */
export const requestCategoryLabels: Record<RequestCategory, string> = {
  travel: 'Travel',
  accomodation: 'Accommodation',
  meals: 'Meals',
  pettyCash: 'Petty Cash',
  kits: 'Kits',
  risingSteamStars: 'Rising Steam Stars',
  stemPark: 'Stem Park',
  procurement: 'Procurement',
  other: 'Other',
};
export const requestCategoryNames = Object.keys(requestCategories) as [
  RequestCategory,
  ...RequestCategory[],
];

/** Budget expense categories and their code (spec §3). */
export const budgetCategories = {
  unicef: 3000,
  'marketing and advertisements': 4000,
  'administrational cost': 5000,
  'operating cost': 6000,
  'rising steam stars programmes': 7000,
  'stem kits': 8000,
  'youth boot camps': 9000,
} as const;
export type BudgetCategory = keyof typeof budgetCategories;
export const budgetCategoryNames = Object.keys(budgetCategories) as [
  BudgetCategory,
  ...BudgetCategory[],
];

/** An expense category in words: 'youth boot camps' → 'Youth boot camps'. */
export function budgetCategoryLabel(category: string): string {
  return category.charAt(0).toUpperCase() + category.slice(1);
}

export const branches = { hq: 0, stemParkDar: 100, stemParkTanga: 200 } as const;
export type Branch = keyof typeof branches;
export const branchNames = Object.keys(branches) as [Branch, ...Branch[]];

/** Branches in words; the stored names stay those of spec §3. */
export const branchLabels: Record<Branch, string> = {
  hq: 'HQ',
  stemParkDar: 'Stem Park Dar es Salaam',
  stemParkTanga: 'Stem Park Tanga',
};

export const requestStatuses = [
  'pending',
  'on_progress',
  'approved',
  'rejected',
  'request_edit',
] as const;
export type RequestStatus = (typeof requestStatuses)[number];

/** A request's or a review's status as people read it: on the pages' tags and in downloads. */
export const requestStatusLabels: Record<RequestStatus, string> = {
  pending: 'Pending',
  on_progress: 'On progress',
  approved: 'Approved',
  rejected: 'Rejected',
  request_edit: 'Request edit',
};

export const retirementStatuses = ['pending', 'on_progress', 'approved', 'rejected'] as const;
export type RetirementStatus = (typeof retirementStatuses)[number];

export const retirementStatusLabels: Record<RetirementStatus, string> = {
  on_progress: 'Under Review',
  pending: 'Not Submitted',
  approved: 'Approved',
  rejected: 'Rejected',
};

/** Filters of the requests and retirements lists. */
export const statusFilters = ['all', 'pending', 'on_progress', 'approved', 'rejected'] as const;
export type StatusFilter = (typeof statusFilters)[number];

export const budgetStatuses = ['active', 'archived'] as const;
export type BudgetStatus = (typeof budgetStatuses)[number];

export const budgetStatusLabels: Record<BudgetStatus, string> = {
  active: 'Active',
  archived: 'Archived',
};

export const addUserModes = ['single', 'multiple'] as const;

export const attachmentTypes = {
  image: ['png', 'jpeg', 'jpg', 'gif', 'bmp', 'webp'],
  msdoc: ['doc', 'docx', 'xls', 'xlsx', 'dot', 'ppt', 'pptx'],
  pdf: ['pdf'],
  zip: ['zip'],
} as const;
export type AttachmentType = keyof typeof attachmentTypes | 'none';

/** The attachment type of a file name, by its extension (spec §3). */
export function attachmentType(fileName: string): AttachmentType {
  const extension = fileName.split('.').pop()?.toLowerCase() ?? '';
  if (!fileName.includes('.')) return 'none';
  for (const [type, extensions] of Object.entries(attachmentTypes)) {
    if ((extensions as readonly string[]).includes(extension)) return type as AttachmentType;
  }
  return 'none';
}

/** A code in words (`scheduled` → `Scheduled`, `phone_number` → `Phone number`). */
export function humanize(value: string): string {
  const words = value.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * A stored value in words by its labels, or the value itself when this build has no label for it
 * (a row written by a later version): a page or a download never shows "undefined".
 */
export function labelOf(labels: Readonly<Record<string, string>>, value: string): string {
  return labels[value] ?? value;
}
