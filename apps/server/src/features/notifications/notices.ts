/** What every notice shares: one e-mail to one person, queued in the caller's transaction. */
import { receivesNotification, type NotificationKind } from '@imprest/domain/notifications.ts';
import type { Executor } from '../../db/client.ts';
import type { DrawnValue } from '../../db/drawn.ts';
import { queueEmails, type Email } from '../../lib/mailer.ts';
import {
  findRetirementNotice,
  type Recipient,
  type RequestNotice,
  type RetirementNotice,
} from './queries.ts';
import type { RenderedEmail, RequestFacts } from './templates.ts';

/** One e-mail to one person about one event, before muting is applied. */
export type Notice = {
  recipient: Recipient;
  kind: NotificationKind;
  key: string;
  email: RenderedEmail;
  /** A value drawn in the transaction whose marker the e-mail holds (Email's `carries`). */
  carries?: DrawnValue;
};

/** Queues the notices whose recipients want them (mute_notification), in the caller's transaction. */
export async function queueNotices(tx: Executor, notices: Notice[]): Promise<number> {
  const wanted = notices.filter((notice) =>
    receivesNotification(notice.recipient.settings, notice.kind),
  );
  const emails: Email[] = wanted.map(({ recipient, kind, key, email, carries }) => ({
    organizationId: recipient.organization_id,
    to: recipient.email,
    subject: email.subject,
    body: email.text,
    html: email.html,
    idempotencyKey: key,
    kind,
    carries,
  }));
  await queueEmails(tx, emails);
  return emails.length;
}

export function factsOf(notice: RequestNotice): RequestFacts {
  return {
    organizationName: notice.organizationName,
    requestId: notice.id,
    ownerName: notice.ownerName,
    purpose: notice.purpose,
    amount: notice.amount,
    currency: notice.currency,
    budgetCode: notice.budgetCode,
    budgetName: notice.budgetName,
    approvalNumber: notice.approvalNumber,
    expenditureDate: notice.expenditureDate,
    justification: notice.justification,
  };
}

/** The e-mail to an item's owner, read with the item (none once the owner is deleted). */
export function ownerNotice(
  owner: Recipient | null,
  build: (owner: Recipient) => Omit<Notice, 'recipient'>,
): Notice[] {
  return owner ? [{ recipient: owner, ...build(owner) }] : [];
}

export async function loadRetirement(
  tx: Executor,
  retirementId: string,
): Promise<RetirementNotice> {
  const notice = await findRetirementNotice(tx, retirementId);
  if (!notice) throw new Error(`retirement ${retirementId} not found for its notifications`);
  return notice;
}
