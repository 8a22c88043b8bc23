import { randomUUID } from 'node:crypto';
import { approvalRowFor } from '@imprest/domain/approval-matrix.ts';
import {
  roleLabels,
  type Currency,
  type RequestCategory,
  type RequestStatus,
} from '@imprest/domain/enums.ts';
import { rateFor, toBaseAmount } from '@imprest/domain/exchange-rates.ts';
import { nextReviewerRole, statusAfterReview } from '@imprest/domain/requests.ts';
import { addDays } from '@imprest/domain/retirements.ts';
import { and, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { storeDemoFile, textPdf } from './files.ts';
import { seedDemoRetirement, type DemoRetirement } from './retirements.ts';
import { users } from '../db/schema.ts';
import { loadApprovalMatrix } from '../features/approval-matrix/queries.ts';
import { budgetBalance, type BudgetRow } from '../features/budgets/ledger.ts';
import {
  findBudgetByCode,
  insertRequest,
  markSuperseded,
  updateRequestStatus,
} from '../features/requests/queries.ts';
import {
  answerPendingReview,
  drawApprovalNumber,
  findReviewsOf,
  insertReviewChain,
} from '../features/reviews/queries.ts';
import { loadExchangeRates } from '../features/settings/queries.ts';

type Outcome = Exclude<RequestStatus, 'pending'> | 'pending';

type DemoRequest = {
  owner: 'staff@example.com' | 'parkmanager@example.com';
  /** Preferred budget code; the other demo code is used when this one is missing or too small. */
  budget: '6105' | '5001';
  purpose: RequestCategory;
  mode: string | null;
  supplier: string;
  justification: string;
  /** Amount in tzs; converted when the budget keeps another currency. */
  amountTzs: number;
  /** Expenditure date, days from today. */
  inDays: number;
  /** Created this many days ago. */
  ageDays: number;
  outcome: Outcome;
  /** Also write an earlier version that was returned for edits (version history). */
  wasReturned?: boolean;
  /** A PDF attached to it: its stored name (7-character prefix and name) and its lines of text. */
  attachment?: { name: string; lines: string[] };
  /** The retirement finance attached to it (an approved request only). */
  retirement?: DemoRetirement;
};

/** Requests in every status, below and above the 150,000,000 threshold (decisions §1). */
const demoRequests: DemoRequest[] = [
  {
    owner: 'staff@example.com',
    budget: '6105',
    purpose: 'travel',
    mode: 'public',
    supplier: 'Dar Express',
    justification: 'Bus fares for the Tanga stem park visit',
    amountTzs: 450_000,
    inDays: 6,
    ageDays: 1,
    outcome: 'pending',
    attachment: {
      name: 'dmQ7x2kDar_Express_quotation.pdf',
      lines: [
        'Dar Express - Quotation',
        'Dar es Salaam to Tanga, return, 3 passengers',
        'Total: TZS 450,000',
      ],
    },
  },
  {
    owner: 'parkmanager@example.com',
    budget: '6105',
    purpose: 'pettyCash',
    mode: null,
    supplier: 'Kariakoo stationers',
    justification: 'Markers and flip charts for the weekend workshop',
    amountTzs: 75_000,
    inDays: 3,
    ageDays: 0,
    outcome: 'pending',
  },
  {
    owner: 'staff@example.com',
    budget: '6105',
    purpose: 'meals',
    mode: 'catering',
    supplier: 'Mama Lishe Catering',
    justification: 'Lunch for 40 participants of the robotics bootcamp',
    amountTzs: 1_200_000,
    inDays: 12,
    ageDays: 4,
    outcome: 'on_progress',
  },
  {
    owner: 'parkmanager@example.com',
    budget: '5001',
    purpose: 'procurement',
    mode: 'services',
    supplier: 'Coastal Builders Ltd',
    justification: 'Renovation of the Dar es Salaam stem park laboratory',
    amountTzs: 155_000_000,
    inDays: 30,
    ageDays: 6,
    outcome: 'on_progress',
  },
  {
    owner: 'staff@example.com',
    budget: '6105',
    purpose: 'accomodation',
    mode: 'hotel',
    supplier: 'Tanga Beach Hotel',
    justification: 'Two nights for the facilitators of the Tanga outreach',
    amountTzs: 850_000,
    inDays: 2,
    ageDays: 9,
    outcome: 'approved',
    attachment: {
      name: 'hT4pL9wTanga_Beach_Hotel_proforma.pdf',
      lines: [
        'Tanga Beach Hotel - Proforma invoice',
        '2 rooms x 2 nights, bed and breakfast',
        'Total: TZS 850,000',
      ],
    },
  },
  {
    owner: 'parkmanager@example.com',
    budget: '5001',
    purpose: 'kits',
    mode: 'product',
    supplier: 'STEM Supplies Africa',
    justification: 'Microscope and electronics kits for 20 partner schools',
    amountTzs: 180_000_000,
    inDays: 20,
    ageDays: 12,
    outcome: 'approved',
  },
  {
    owner: 'parkmanager@example.com',
    budget: '5001',
    purpose: 'stemPark',
    mode: 'Tanga',
    supplier: 'Tanga Events',
    justification: 'Open day decorations and sound system',
    amountTzs: 2_500_000,
    inDays: 9,
    ageDays: 7,
    outcome: 'rejected',
  },
  {
    owner: 'staff@example.com',
    budget: '5001',
    purpose: 'procurement',
    mode: 'goods',
    supplier: 'Techno Brain',
    justification: 'Laptops for the content team; quotes attached',
    amountTzs: 160_000_000,
    inDays: 25,
    ageDays: 5,
    outcome: 'request_edit',
  },
  {
    owner: 'staff@example.com',
    budget: '6105',
    purpose: 'other',
    mode: null,
    supplier: 'Print Hub',
    justification: 'Printing of bootcamp certificates (second version with the corrected quote)',
    amountTzs: 320_000,
    inDays: 8,
    ageDays: 2,
    outcome: 'pending',
    wasReturned: true,
  },
  // Approved and spent, with their retirements in every status (decisions §4). Asha's pending one
  // is 20 days past due (the escalated warning, not locked); Hamisi's is 35 days past due, so the
  // lock job at the end of the seed locks him. Nobody else's is past the lock line.
  {
    owner: 'staff@example.com',
    budget: '6105',
    purpose: 'travel',
    mode: 'public',
    supplier: 'Kilimanjaro Express',
    justification: 'Bus fares and allowances for the Moshi schools roadshow',
    amountTzs: 640_000,
    inDays: -34,
    ageDays: 40,
    outcome: 'approved',
    retirement: { status: 'pending', dueInDays: -20 },
  },
  {
    owner: 'parkmanager@example.com',
    budget: '6105',
    purpose: 'pettyCash',
    mode: null,
    supplier: 'Kariakoo Hardware',
    justification: 'Fuses, cables and soldering wire for the park workshop',
    amountTzs: 280_000,
    inDays: -49,
    ageDays: 55,
    outcome: 'approved',
    retirement: { status: 'pending', dueInDays: -35 },
  },
  {
    owner: 'staff@example.com',
    budget: '6105',
    purpose: 'meals',
    mode: 'catering',
    supplier: 'Bagamoyo Beach Catering',
    justification: "Lunch for the teachers' training day in Bagamoyo",
    amountTzs: 900_000,
    inDays: -6,
    ageDays: 12,
    outcome: 'approved',
    retirement: {
      status: 'on_progress',
      dueInDays: 8,
      spentTzs: 870_000,
      comments:
        'Lunch for 36 teachers; receipt attached. TZS 30,000 is back in the petty cash box.',
      submittedDaysAgo: 1,
      receipt: {
        name: 'dmR4c1tBagamoyo_Beach_Catering_receipt.pdf',
        lines: [
          'Bagamoyo Beach Catering - Receipt',
          "Lunch and drinks, teachers' training day, 36 people",
          'Total paid: TZS 870,000',
        ],
      },
    },
  },
  {
    owner: 'parkmanager@example.com',
    budget: '5001',
    purpose: 'kits',
    mode: 'product',
    supplier: 'Sunshine Solar Kits',
    justification: 'Solar experiment kits for the Tanga after-school club',
    amountTzs: 3_200_000,
    inDays: -30,
    ageDays: 38,
    outcome: 'approved',
    retirement: {
      status: 'approved',
      dueInDays: -16,
      spentTzs: 3_050_000,
      comments:
        'Bought 25 kits at TZS 122,000 each; the remaining TZS 150,000 went back to finance.',
      submittedDaysAgo: 18,
      isFundsReturned: true,
      receipt: {
        name: 'dmR8k2sSunshine_Solar_Kits_receipt.pdf',
        lines: [
          'Sunshine Solar Kits - Receipt',
          '25 solar experiment kits x TZS 122,000',
          'Total paid: TZS 3,050,000',
        ],
      },
      decisionComments: 'Receipts match the kits delivered. Cash returned confirmed.',
    },
  },
  {
    owner: 'staff@example.com',
    budget: '6105',
    purpose: 'procurement',
    mode: 'goods',
    supplier: 'Techno Brain',
    justification: 'Projector for the engineering lab',
    amountTzs: 1_400_000,
    inDays: -12,
    ageDays: 20,
    outcome: 'approved',
    retirement: {
      status: 'rejected',
      dueInDays: 2,
      spentTzs: 1_380_000,
      comments: 'Projector and its cables; TZS 20,000 change returned to the petty cash box.',
      submittedDaysAgo: 3,
      receipt: {
        name: 'dmR2p9xTechno_Brain_proforma_invoice.pdf',
        lines: [
          'Techno Brain - Proforma invoice',
          'Projector and cables',
          'Total: TZS 1,380,000 (not a receipt)',
        ],
      },
      decisionComments:
        'The projector receipt is a proforma invoice, not the EFD receipt. Attach the EFD receipt from Techno Brain and resubmit.',
    },
  },
];

const comments: Record<Exclude<Outcome, 'pending' | 'on_progress'>, string> = {
  approved: 'Checked against the budget line. Approved.',
  rejected: 'Not a priority this quarter; please plan it for the next budget.',
  request_edit: 'Please attach three quotations and resubmit.',
};

/** Today as the seed reads it (UTC unless the caller says, e.g. the day in ORG_TIMEZONE). */
function utcToday(): string {
  return new Date().toISOString().slice(0, 10);
}

/** How many steps are answered, and how, for an outcome over a chain of `steps` reviews. */
function answersFor(outcome: Outcome, steps: number): ('approved' | 'rejected' | 'request_edit')[] {
  switch (outcome) {
    case 'pending':
      return [];
    case 'on_progress':
      return Array<'approved'>(steps - 1).fill('approved');
    case 'approved':
      return Array<'approved'>(steps).fill('approved');
    case 'rejected':
      return [...Array<'approved'>(Math.min(1, steps - 1)).fill('approved'), 'rejected'];
    case 'request_edit':
      return ['request_edit'];
  }
}

/**
 * Seeds demo requests in every status for staff@example.com and parkmanager@example.com against
 * budget codes 6105 and 5001, inside the caller's transaction, and the retirements of some
 * approved ones in every retirement status. Budgets are looked up by code at run time; a request
 * is skipped when no demo budget exists or none has room for it. Returns how many requests were
 * written. Call it after the budgets seed.
 */
export async function seedDemoRequests(
  tx: Executor,
  options: { organizationId: string; dataDir?: string; today?: string },
): Promise<number> {
  const { organizationId } = options;
  const today = options.today ?? utcToday();
  const dayFromToday = (days: number) => addDays(today, days);
  const people = await tx
    .select()
    .from(users)
    .where(and(eq(users.organization_id, organizationId), isNull(users.deleted_at)));
  const owners = new Map(people.map((person) => [person.email, person]));
  const budgets = new Map<string, BudgetRow>();
  for (const code of ['6105', '5001']) {
    const budget = await findBudgetByCode(tx, { organizationId, code });
    if (budget && budget.current_status === 'active') budgets.set(code, budget);
  }
  if (budgets.size === 0) return 0;
  const rates = await loadExchangeRates(tx, organizationId);
  const matrix = await loadApprovalMatrix(tx, organizationId);
  // Approval numbers count within the year of the seed's today (the organisation's, in the server).
  const year = Number(today.slice(0, 4));
  let written = 0;

  for (const spec of demoRequests) {
    const owner = owners.get(spec.owner);
    if (!owner) continue;
    const candidates = [spec.budget, spec.budget === '6105' ? '5001' : '6105'];
    let chosen: { budget: BudgetRow; amount: number; rate: number } | undefined;
    for (const code of candidates) {
      const budget = budgets.get(code);
      if (!budget) continue;
      const rate = rateFor(budget.currency as Currency, rates);
      const amount = Math.round((spec.amountTzs / rate) * 100) / 100;
      if (amount <= (await budgetBalance(tx, budget)).available) {
        chosen = { budget, amount, rate };
        break;
      }
    }
    if (!chosen) continue;
    const { budget, amount, rate } = chosen;
    const amountBase = toBaseAmount(amount, rate);
    const row = approvalRowFor(matrix, amountBase);
    if (!row) continue;

    const versions: Outcome[] = spec.wasReturned ? ['request_edit', spec.outcome] : [spec.outcome];
    const filePaths =
      spec.attachment && options.dataDir
        ? [
            await storeDemoFile(tx, {
              dataDir: options.dataDir,
              organizationId,
              ownerId: owner.id,
              name: spec.attachment.name,
              content: textPdf(spec.attachment.lines),
            }),
          ]
        : [];
    let previous: { id: string; chainId: string; version: number } | undefined;
    for (const [index, outcome] of versions.entries()) {
      const id = randomUUID();
      const createdAt = new Date(
        Date.now() - (spec.ageDays + versions.length - 1 - index) * 86_400_000,
      );
      await insertRequest(tx, {
        id,
        organization_id: organizationId,
        chain_id: previous?.chainId ?? id,
        version: (previous?.version ?? 0) + 1,
        parent_request: previous?.id ?? null,
        request_owner_id: owner.id,
        request_owner_name: owner.fullname,
        department: owner.department,
        purpose: spec.purpose,
        mode_of_service: spec.mode,
        name_of_establishment: spec.supplier,
        expenditure_date: dayFromToday(spec.inDays),
        expenditure_justification: spec.justification,
        amount_requested: amount.toFixed(2),
        amount_currency: budget.currency,
        exchange_rate: rate.toFixed(6),
        amount_base: amountBase.toFixed(2),
        budget_id: budget.id,
        budget_code: budget.code,
        payment_mode: spec.amountTzs > 1_000_000 ? 'bank_transfer' : 'cash',
        tax_status: 'taxInclusive',
        current_status: 'pending',
        file_paths: filePaths,
        created_at: createdAt,
        modified_at: createdAt,
      });
      await insertReviewChain(tx, {
        organizationId,
        requestId: id,
        roles: row.user_role,
        titleOf: (role) => roleLabels[role],
      });
      const chain = await findReviewsOf(tx, id);
      // Answer the steps the outcome needs; the status follows the same rule as a live review.
      const state = chain.map((review) => ({
        step: review.step,
        status: review.status,
        reviewer_role: review.reviewer_role,
      }));
      let status: RequestStatus = 'pending';
      const answeredBy: string[] = [];
      for (const [index, decision] of answersFor(outcome, chain.length).entries()) {
        const review = chain[index];
        const reviewer = people.find(
          (person) => person.role === review?.reviewer_role && person.id !== owner.id,
        );
        const current = state[index];
        if (!review || !reviewer || !current) break;
        status = statusAfterReview(state, decision).status;
        current.status = decision;
        answeredBy.push(reviewer.id);
        await answerPendingReview(tx, {
          id: review.id,
          status: decision,
          comments: comments[decision],
          reviewerId: reviewer.id,
          reviewerName: reviewer.fullname,
          reviewerTitle: roleLabels[reviewer.role as keyof typeof roleLabels],
        });
      }
      const number =
        status === 'approved' ? await drawApprovalNumber(tx, { organizationId, year }) : null;
      await updateRequestStatus(tx, {
        id,
        status,
        nextReviewerRole: nextReviewerRole(status, state),
        approvalNumber: number,
        answeredBy,
      });
      if (previous) await markSuperseded(tx, previous.id);
      const attachedBy = people.find((person) => person.role === 'finance_officer');
      if (spec.retirement && status === 'approved' && attachedBy) {
        await seedDemoRetirement(tx, {
          organizationId,
          request: {
            id,
            budget_id: budget.id,
            amount_requested: amount.toFixed(2),
            amount_currency: budget.currency,
            request_owner_id: owner.id,
          },
          reviewerRoles: row.user_role,
          people,
          attachedBy,
          rate,
          today,
          spec: spec.retirement,
          dataDir: options.dataDir,
        });
      }
      previous = { id, chainId: previous?.chainId ?? id, version: (previous?.version ?? 0) + 1 };
      written += 1;
    }
  }
  return written;
}
