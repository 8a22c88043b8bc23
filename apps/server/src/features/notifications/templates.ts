import { dayText } from '@imprest/domain/days.ts';
import { amountWithCurrency } from '@imprest/domain/money.ts';
import { labelOf, requestCategoryLabels, roleLabels } from '@imprest/domain/enums.ts';
import type { RetirementMilestone } from '@imprest/domain/notifications.ts';
import { reviewerTitle } from '@imprest/domain/requests.ts';
import { cashToReturn, retirementWarningMessages } from '@imprest/domain/retirements.ts';

/** A rendered e-mail: subject, plain text and HTML. */
export type RenderedEmail = { subject: string; text: string; html: string };

/** The web app's pages an e-mail links to (apps/web/src/paths.ts). */
export const webPaths = {
  home: () => '/dashboard',
  request: (requestId: string) => `/dashboard/view-request/${encodeURIComponent(requestId)}`,
  retirement: (requestId: string) => `/dashboard/retirements/${encodeURIComponent(requestId)}`,
};

/** The request's essentials every request or retirement e-mail shows. */
export type RequestFacts = {
  organizationName: string;
  requestId: string;
  ownerName: string;
  purpose: string;
  amount: string;
  currency: string;
  budgetCode: string;
  budgetName: string;
  approvalNumber: string | null;
  /** YYYY-MM-DD. */
  expenditureDate: string;
  justification: string;
};

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function purposeLabel(purpose: string): string {
  return labelOf(requestCategoryLabels, purpose);
}

function roleLabel(role: string): string {
  return labelOf(roleLabels, role);
}

type Layout = {
  organizationName: string;
  subject: string;
  greeting: string;
  paragraphs: string[];
  facts?: [string, string][];
  /** Extra lines as a list (a digest's steps). */
  items?: { text: string; url: string }[];
  action: { label: string; url: string };
};

function requestFactRows(facts: RequestFacts): [string, string][] {
  return [
    ['Owner', facts.ownerName],
    ['Purpose', purposeLabel(facts.purpose)],
    ['Amount', amountWithCurrency(facts.amount, facts.currency)],
    ['Budget code', `${facts.budgetCode} - ${facts.budgetName}`],
    ...(facts.approvalNumber
      ? ([['Approval number', facts.approvalNumber]] as [string, string][])
      : []),
  ];
}

/**
 * The one layout of every e-mail: organisation, greeting, paragraphs, facts, one button. Its card
 * is as wide as the screen up to 560 px, so a phone shows it whole, without scrolling sideways.
 */
function render(layout: Layout): RenderedEmail {
  const facts = layout.facts ?? [];
  const items = layout.items ?? [];
  const text = [
    `${layout.organizationName} · Imprest`,
    '',
    layout.greeting,
    '',
    ...layout.paragraphs.flatMap((paragraph) => [paragraph, '']),
    ...(facts.length > 0 ? [...facts.map(([label, value]) => `${label}: ${value}`), ''] : []),
    ...(items.length > 0 ? [...items.map((item) => `- ${item.text}\n  ${item.url}`), ''] : []),
    `${layout.action.label}: ${layout.action.url}`,
    '',
    `You receive this e-mail from Imprest for ${layout.organizationName}. You can mute notifications in Settings.`,
  ].join('\n');
  const cell = 'padding:4px 12px 4px 0;vertical-align:top';
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(layout.subject)}</title></head>
<body style="margin:0;background:#f4f5f7;font-family:Arial,Helvetica,sans-serif;color:#1f2933">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:16px 8px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px">
<tr><td style="padding:20px 28px;border-bottom:1px solid #e4e7eb;font-size:14px;color:#52606d">${escapeHtml(layout.organizationName)} · Imprest</td></tr>
<tr><td style="padding:24px 28px;font-size:15px;line-height:1.5">
<p style="margin:0 0 16px">${escapeHtml(layout.greeting)}</p>
${layout.paragraphs.map((paragraph) => `<p style="margin:0 0 16px">${escapeHtml(paragraph)}</p>`).join('\n')}
${
  facts.length > 0
    ? `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:0 0 20px;font-size:14px">
${facts.map(([label, value]) => `<tr><td style="${cell};color:#52606d">${escapeHtml(label)}</td><td style="${cell};font-weight:bold">${escapeHtml(value)}</td></tr>`).join('\n')}
</table>`
    : ''
}${
    items.length > 0
      ? `<ul style="margin:0 0 20px;padding-left:20px;font-size:14px">
${items.map((item) => `<li style="margin:0 0 6px"><a href="${escapeHtml(item.url)}" style="color:#1d4ed8">${escapeHtml(item.text)}</a></li>`).join('\n')}
</ul>`
      : ''
  }
<p style="margin:8px 0 0"><a href="${escapeHtml(layout.action.url)}" style="display:inline-block;background:#1d4ed8;color:#ffffff;text-decoration:none;padding:10px 18px;border-radius:6px;font-weight:bold">${escapeHtml(layout.action.label)}</a></p>
</td></tr>
<tr><td style="padding:16px 28px;border-top:1px solid #e4e7eb;font-size:12px;color:#7b8794">You receive this e-mail from Imprest for ${escapeHtml(layout.organizationName)}. You can mute notifications in Settings.</td></tr>
</table></td></tr></table>
</body></html>`;
  return { subject: layout.subject, text, html };
}

/** How much of a justification or a comment a reviewer's e-mail quotes; the record holds it all. */
const quotedCharacters = 300;

/** Someone's text, trimmed, quoted up to `quotedCharacters` characters, with … when cut. */
function quoted(text: string): string {
  // By characters, not UTF-16 units, so an emoji is never cut in half.
  const characters = Array.from(text.trim());
  if (characters.length <= quotedCharacters) return characters.join('');
  return `${characters
    .slice(0, quotedCharacters - 1)
    .join('')
    .trimEnd()}…`;
}

/** What a reviewer decides on beyond the request's essentials: when, and why. */
function reviewFactRows(facts: RequestFacts): [string, string][] {
  const justification = quoted(facts.justification);
  return [
    ['Expenditure date', dayText(facts.expenditureDate)],
    ...(justification ? ([['Justification', justification]] as [string, string][]) : []),
  ];
}

/** What a retirement's reviewer weighs: what was spent, what is left to return, the owner's word. */
function retirementFactRows(
  retirement: { amountReceived: string; amountSpent: string | null; comments: string },
  currency: string,
): [string, string][] {
  if (retirement.amountSpent === null) return [];
  const leftOver = cashToReturn(Number(retirement.amountReceived), Number(retirement.amountSpent));
  const comments = quoted(retirement.comments);
  return [
    ['Amount spent', amountWithCurrency(retirement.amountSpent, currency)],
    ...(leftOver > 0
      ? ([['Cash to return', amountWithCurrency(leftOver, currency)]] as [string, string][])
      : []),
    ...(comments ? ([['Comments', comments]] as [string, string][]) : []),
  ];
}

function link(appUrl: string, path: string): string {
  return new URL(path, appUrl).toString();
}

function summary(facts: RequestFacts): string {
  return `${purposeLabel(facts.purpose)}, ${amountWithCurrency(facts.amount, facts.currency)}`;
}

/** To a step's reviewers: a request or retirement waits for them (or will, with cascading). */
export function reviewRequestedEmail(options: {
  appUrl: string;
  facts: RequestFacts;
  recipientName: string;
  subject: 'request' | 'retirement';
  step: number;
  role: string;
  isUpcoming: boolean;
  /** A retirement's figures and the owner's comments, for its reviewers. */
  retirement?: { amountReceived: string; amountSpent: string | null; comments: string };
  /** The delegator the recipient reviews for, as their delegate (issue 15). */
  onBehalfOfName?: string | null;
}): RenderedEmail {
  const { facts, subject, step } = options;
  const what = subject === 'request' ? 'request' : 'retirement';
  const delegator = options.onBehalfOfName;
  const position = `${reviewerTitle(step)} (${roleLabel(options.role)})${delegator ? `, on behalf of ${delegator}, who named you their delegate` : ''}`;
  const url = link(
    options.appUrl,
    subject === 'request'
      ? webPaths.request(facts.requestId)
      : webPaths.retirement(facts.requestId),
  );
  const facts2 = [
    ...requestFactRows(facts),
    ...reviewFactRows(facts),
    ...(subject === 'retirement' && options.retirement
      ? retirementFactRows(options.retirement, facts.currency)
      : []),
  ];
  return render({
    organizationName: facts.organizationName,
    subject: options.isUpcoming
      ? `A ${what} will come to you for review: ${summary(facts)} from ${facts.ownerName}`
      : `A ${what} awaits your review: ${summary(facts)} from ${facts.ownerName}`,
    greeting: `Hello ${options.recipientName},`,
    paragraphs: options.isUpcoming
      ? [
          `${facts.ownerName} submitted a ${what}. You review it as the ${position} once the earlier steps approve it; we will tell you when it is your turn.`,
        ]
      : [`${facts.ownerName}'s ${what} is waiting for your review as the ${position}.`],
    facts: facts2,
    action: { label: `Open the ${what}`, url },
  });
}

/** To the owner: their request was approved, rejected or returned for edits. */
export function requestDecisionEmail(options: {
  appUrl: string;
  facts: RequestFacts;
  decision: 'approved' | 'rejected' | 'returned';
  comments: string;
}): RenderedEmail {
  const { facts, decision } = options;
  const headline = {
    approved: `Your request was approved${facts.approvalNumber ? `: ${facts.approvalNumber}` : ''}`,
    rejected: 'Your request was rejected',
    returned: 'Your request was returned for edits',
  }[decision];
  const paragraph = {
    approved: `Your request for ${summary(facts)} has been approved${facts.approvalNumber ? ` with approval number ${facts.approvalNumber}` : ''}.`,
    rejected: `Your request for ${summary(facts)} has been rejected.`,
    returned: `Your request for ${summary(facts)} has been returned for edits. Change it and submit it again.`,
  }[decision];
  return render({
    organizationName: facts.organizationName,
    subject: `${headline} (${summary(facts)})`,
    greeting: `Hello ${facts.ownerName},`,
    paragraphs: [
      paragraph,
      ...(options.comments ? [`The reviewer's comments: "${options.comments}"`] : []),
    ],
    facts: requestFactRows(facts),
    action: {
      label: decision === 'returned' ? 'Edit the request' : 'View the request',
      url: link(options.appUrl, webPaths.request(facts.requestId)),
    },
  });
}

/** To the owner: finance attached a retirement, with its due date and the first §8 warning. */
export function retirementAttachedEmail(options: {
  appUrl: string;
  facts: RequestFacts;
  dueDate: string;
}): RenderedEmail {
  const { facts } = options;
  return render({
    organizationName: facts.organizationName,
    subject: `Retire your advance by ${dayText(options.dueDate)} (${summary(facts)})`,
    greeting: `Hello ${facts.ownerName},`,
    paragraphs: [
      `Finance asks you to account for the money of your approved request. Submit the amount spent and your receipts by ${dayText(options.dueDate)}.`,
      retirementWarningMessages.beforeGracePeriod,
    ],
    facts: [...requestFactRows(facts), ['Due date', dayText(options.dueDate)]],
    action: {
      label: 'Open the retirement form',
      url: link(options.appUrl, webPaths.retirement(facts.requestId)),
    },
  });
}

/** To the owner: their retirement was approved or rejected. */
export function retirementDecisionEmail(options: {
  appUrl: string;
  facts: RequestFacts;
  decision: 'approved' | 'rejected';
  comments: string;
}): RenderedEmail {
  const { facts, decision } = options;
  return render({
    organizationName: facts.organizationName,
    subject: `Your retirement was ${decision} (${summary(facts)})`,
    greeting: `Hello ${facts.ownerName},`,
    paragraphs: [
      decision === 'approved'
        ? `Your retirement of ${summary(facts)} has been approved. Nothing more is needed.`
        : `Your retirement of ${summary(facts)} has been rejected. Open it to ask to resubmit it.`,
      ...(options.comments ? [`The reviewer's comments: "${options.comments}"`] : []),
    ],
    facts: requestFactRows(facts),
    action: {
      label: 'Open the retirement',
      url: link(options.appUrl, webPaths.retirement(facts.requestId)),
    },
  });
}

/** To the owner of a pending retirement: a spec §8 warning begins today. */
export function retirementWarningEmail(options: {
  appUrl: string;
  facts: RequestFacts;
  dueDate: string;
  milestone: RetirementMilestone;
}): RenderedEmail {
  const { facts } = options;
  const isGrace = options.milestone === 'grace';
  return render({
    organizationName: facts.organizationName,
    subject: isGrace
      ? `Your retirement is past the 30 days grace period (${summary(facts)})`
      : `Submit your retirement before your account is blocked (${summary(facts)})`,
    greeting: `Hello ${facts.ownerName},`,
    paragraphs: [
      isGrace ? retirementWarningMessages.pastGracePeriod : retirementWarningMessages.beforeBlocked,
    ],
    facts: [...requestFactRows(facts), ['Due date', dayText(options.dueDate)]],
    action: {
      label: 'Submit the retirement',
      url: link(options.appUrl, webPaths.retirement(facts.requestId)),
    },
  });
}

/** To a user whose account was locked or unlocked (by the midnight job or by finance). */
export function accountLockEmail(options: {
  appUrl: string;
  organizationName: string;
  recipientName: string;
  isLocked: boolean;
  reason: string | null;
}): RenderedEmail {
  return render({
    organizationName: options.organizationName,
    subject: options.isLocked
      ? 'Your Imprest account is locked from new requests'
      : 'Your Imprest account is unlocked',
    greeting: `Hello ${options.recipientName},`,
    paragraphs: options.isLocked
      ? [
          'You can not submit new requests or edit existing ones until your account is unlocked. You can still sign in and submit your retirements.',
          ...(options.reason ? [`Reason: ${options.reason}`] : []),
          "If this isn't correct, contact your finance officer.",
        ]
      : ['You can submit and edit requests again.'],
    action: { label: 'Open Imprest', url: link(options.appUrl, webPaths.home()) },
  });
}

/** One line of a reviewer's digest. */
export type DigestItem = {
  kind: 'request' | 'retirement';
  requestId: string;
  ownerName: string;
  purpose: string;
  amount: string;
  currency: string;
  workingDays: number;
};

/** To a reviewer with a late step: every step waiting for them, once a day. */
export function reviewReminderEmail(options: {
  appUrl: string;
  organizationName: string;
  recipientName: string;
  items: DigestItem[];
}): RenderedEmail {
  const count = options.items.length;
  return render({
    organizationName: options.organizationName,
    subject: `${count} ${count === 1 ? 'step waits' : 'steps wait'} for your review`,
    greeting: `Hello ${options.recipientName},`,
    paragraphs: [
      `These requests and retirements are waiting for your review; some have waited more than 3 working days.`,
    ],
    items: options.items.map((item) => ({
      text: `${item.kind === 'request' ? 'Request' : 'Retirement'}: ${item.ownerName}, ${purposeLabel(item.purpose)}, ${amountWithCurrency(item.amount, item.currency)} (waiting ${item.workingDays} working ${item.workingDays === 1 ? 'day' : 'days'})`,
      url: link(
        options.appUrl,
        item.kind === 'request'
          ? webPaths.request(item.requestId)
          : webPaths.retirement(item.requestId),
      ),
    })),
    action: { label: 'Open Imprest', url: link(options.appUrl, webPaths.home()) },
  });
}

/** What happened to a delegation, for its e-mails (issue 15; docs/decisions/0019). */
export type DelegationNoticeFacts = {
  organizationName: string;
  delegatorName: string;
  delegateName: string;
  /** Who named or ended it: the delegator, the director, or whoever changed one of the two. */
  actorName: string;
  actorIsDelegator: boolean;
  startsOn: string;
  endsOn: string;
  note: string | null;
};

/**
 * A delegation was named (`named`) or ended before its last day (`ended`): to the delegate, who
 * learns whose steps come to them and for which days, and to the delegator when someone else did
 * it (the director, or whoever changed one of the two).
 */
export function delegationEmail(options: {
  appUrl: string;
  facts: DelegationNoticeFacts;
  event: 'named' | 'ended';
  recipient: 'delegate' | 'delegator';
}): RenderedEmail {
  const { facts, event } = options;
  const { delegatorName: delegator, delegateName: delegate, actorName: actor } = facts;
  const days = `${dayText(facts.startsOn)} to ${dayText(facts.endsOn)}`;
  const toDelegate = options.recipient === 'delegate';
  const whose = facts.actorIsDelegator ? 'their' : `${delegator}'s`;
  const lines = {
    named: toDelegate
      ? {
          subject: `You review for ${delegator} from ${days}`,
          paragraphs: [
            `${actor} named you ${whose} delegate from ${days}, both days included.`,
            `On those days ${delegator}'s review steps show on your Home, marked Delegated, and you can answer them; each answer records both names. ${delegator} can still answer them too.`,
          ],
        }
      : {
          subject: `${delegate} reviews for you from ${days}`,
          paragraphs: [
            `${actor} named ${delegate} your delegate from ${days}, both days included.`,
            `On those days ${delegate} can answer your review steps on your behalf; each answer records both names. You can still answer them too, and end the delegation in Settings.`,
          ],
        },
    ended: toDelegate
      ? {
          subject: `You no longer review for ${delegator}`,
          paragraphs: [
            `${actor} ended ${whose} delegation to you (${days}). ${delegator}'s review steps no longer come to you.`,
          ],
        }
      : {
          subject: `${delegate} no longer reviews for you`,
          paragraphs: [
            `${actor} ended ${delegate}'s delegation for you (${days}). Your review steps come to you alone again.`,
          ],
        },
  }[event];
  return render({
    organizationName: facts.organizationName,
    subject: lines.subject,
    greeting: `Hello ${toDelegate ? delegate : delegator},`,
    paragraphs: lines.paragraphs,
    facts: [
      ['Delegator', delegator],
      ['Delegate', delegate],
      ['Days', days],
      ...(facts.note ? ([['Note', facts.note]] as [string, string][]) : []),
    ],
    action: { label: 'Open Imprest', url: link(options.appUrl, webPaths.home()) },
  });
}
