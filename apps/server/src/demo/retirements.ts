import { roleLabels, type RetirementStatus, type Role } from '@imprest/domain/enums.ts';
import { addDays } from '@imprest/domain/retirements.ts';
import type { Executor } from '../db/client.ts';
import { retirementReviews, retirements, type users } from '../db/schema.ts';
import { storeDemoFile, textPdf } from './files.ts';

/** A retirement of a demo request; amounts are in tzs and converted like the request's. */
export type DemoRetirement = {
  status: RetirementStatus;
  /** Due date, days from today (negative: past due). */
  dueInDays: number;
  /** What the owner reported spent, for a submitted one. */
  spentTzs?: number;
  /** The owner's comments for the reviewers. */
  comments?: string;
  /** Submitted this many days ago. */
  submittedDaysAgo?: number;
  /** A reviewer confirmed the unspent cash came back. */
  isFundsReturned?: boolean;
  /** What the deciding reviewer wrote (approved: the last step; rejected: the rejecting one). */
  decisionComments?: string;
  /** The receipt a submitted one carries: a stored name (7 characters, then the file's) and lines. */
  receipt?: { name: string; lines: string[] };
};

type Person = typeof users.$inferSelect;
type Decision = 'pending' | 'approved' | 'rejected';

/** The answers of a round of `steps` reviews for a status, as a live review would leave them. */
function roundFor(status: RetirementStatus, steps: number): Decision[] {
  const answers: Decision[] = Array<Decision>(steps).fill('pending');
  if (status === 'approved') answers.fill('approved');
  if (status === 'rejected') {
    // The first step passes it; the second (or the only one) rejects it.
    if (steps > 1) answers[0] = 'approved';
    answers[Math.min(1, steps - 1)] = 'rejected';
  }
  return answers;
}

const passingComments = 'Amounts checked against the receipts.';

/**
 * Writes the retirement of an approved demo request, and for a submitted one its first review
 * round (the request's reviewer roles, in order), inside the caller's transaction. Writing an
 * approved one moves its budget through the ledger trigger (spent in place of received).
 */
export async function seedDemoRetirement(
  tx: Executor,
  options: {
    organizationId: string;
    request: {
      id: string;
      budget_id: string;
      amount_requested: string;
      amount_currency: string;
      request_owner_id: string;
    };
    reviewerRoles: readonly Role[];
    people: Person[];
    /** The finance officer who attached it. */
    attachedBy: Person;
    /** tzs per unit of the request's currency. */
    rate: number;
    today: string;
    spec: DemoRetirement;
    /** Where the receipt is stored (DATA_DIR); without it the retirement holds none. */
    dataDir?: string;
  },
): Promise<void> {
  const { organizationId, request, spec, today } = options;
  const dayStart = (day: string) => new Date(`${day}T09:00:00Z`);
  // Attached 14 days before it fell due (decisions §4), submitted some days later.
  const attachedAt = dayStart(addDays(today, spec.dueInDays - 14));
  const isSubmitted = spec.status !== 'pending';
  const submittedAt = isSubmitted ? dayStart(addDays(today, -(spec.submittedDaysAgo ?? 1))) : null;
  const answers = isSubmitted ? roundFor(spec.status, options.reviewerRoles.length) : [];
  const spent =
    isSubmitted && spec.spentTzs !== undefined
      ? (Math.round((spec.spentTzs / options.rate) * 100) / 100).toFixed(2)
      : null;
  // A submitted retirement shows its receipt, as the owner's comments say it does.
  const filePaths =
    isSubmitted && spec.receipt && options.dataDir
      ? [
          await storeDemoFile(tx, {
            dataDir: options.dataDir,
            organizationId,
            ownerId: request.request_owner_id,
            name: spec.receipt.name,
            content: textPdf(spec.receipt.lines),
          }),
        ]
      : [];
  const [retirement] = await tx
    .insert(retirements)
    .values({
      organization_id: organizationId,
      request_id: request.id,
      budget_id: request.budget_id,
      retirement_owner_id: request.request_owner_id,
      status: spec.status,
      due_date: addDays(today, spec.dueInDays),
      amount_received: request.amount_requested,
      amount_spent: spent,
      amount_currency: request.amount_currency,
      comments: spec.comments ?? null,
      file_paths: filePaths,
      is_funds_returned: spec.status === 'approved' && (spec.isFundsReturned ?? false),
      submissions: isSubmitted ? 1 : 0,
      submitted_at: submittedAt,
      next_reviewer_role: spec.status === 'on_progress' ? (options.reviewerRoles[0] ?? null) : null,
      created_by: options.attachedBy.id,
      created_at: attachedAt,
      modified_at: submittedAt ?? attachedAt,
    })
    .returning({ id: retirements.id });
  if (!retirement) throw new Error('demo retirement insert returned nothing');
  if (!isSubmitted) return;

  const deciding = answers.lastIndexOf(spec.status === 'rejected' ? 'rejected' : 'approved');
  await tx.insert(retirementReviews).values(
    options.reviewerRoles.map((role, index) => {
      const answer = answers[index] ?? 'pending';
      const reviewer =
        answer === 'pending'
          ? undefined
          : options.people.find(
              (person) => person.role === role && person.id !== request.request_owner_id,
            );
      const reviewedAt =
        reviewer && submittedAt ? new Date(submittedAt.getTime() + (index + 1) * 3_600_000) : null;
      return {
        organization_id: organizationId,
        retirement_id: retirement.id,
        round: 1,
        step: index + 1,
        reviewer_role: role,
        reviewer_id: reviewer?.id ?? null,
        reviewer_name: reviewer?.fullname ?? null,
        reviewer_title: roleLabels[role],
        comments: reviewer
          ? index === deciding
            ? (spec.decisionComments ?? passingComments)
            : passingComments
          : '',
        status: reviewer ? answer : 'pending',
        is_funds_returned:
          index === deciding && spec.status === 'approved' && (spec.isFundsReturned ?? false),
        reviewed_at: reviewedAt,
        created_at: submittedAt ?? attachedAt,
        modified_at: reviewedAt ?? submittedAt ?? attachedAt,
      };
    }),
  );
}
