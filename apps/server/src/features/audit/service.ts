import type {
  AuditDownloadQuery,
  AuditHistoryParams,
  AuditHistoryQuery,
  AuditPageResponse,
  AuditQuery,
} from '@imprest/domain/api/audit.ts';
import type { AuditChanges } from '@imprest/domain/audit.ts';
import {
  auditActionLabel,
  auditChangeLines,
  auditObjectLabel,
} from '@imprest/domain/audit-words.ts';
import type { AppContext } from '../../context.ts';
import type { SpreadsheetDownload } from '../../lib/attachment.ts';
import type { Actor } from '../../lib/authenticate.ts';
import { AppError } from '../../lib/errors.ts';
import { streamWorkbook, wallClockIn } from '../../lib/workbook.ts';
import { assertBudgetReadable } from '../budgets/service.ts';
import { getRequest } from '../requests/service.ts';
import { readUser } from '../users/service.ts';
import { canReadAuditTrail, objectHistoryView } from './policy.ts';
import { decodeAuditCursor, encodeAuditCursor, presentAuditEvent } from './presenter.ts';
import { findAuditEvents, type AuditFilters, type AuditRow } from './queries.ts';

function assertDirector(actor: Actor): void {
  if (!canReadAuditTrail(actor))
    throw new AppError('forbidden', 'Only the director can read the audit trail.');
}

function filtersOf(context: AppContext, actor: Actor, query: AuditDownloadQuery): AuditFilters {
  return {
    organizationId: actor.organization_id,
    actorId: query.actor_id,
    action: query.action,
    objectType: query.object_type,
    objectId: query.object_id,
    from: query.from,
    to: query.to,
    timezone: context.config.orgTimezone,
  };
}

async function pageOf(
  context: AppContext,
  filters: AuditFilters,
  page: { cursor?: string; per_page: number },
  shown: { showsOrigin: boolean },
): Promise<AuditPageResponse> {
  const after = page.cursor === undefined ? undefined : decodeAuditCursor(page.cursor);
  if (after === null) {
    throw new AppError(
      'bad_request',
      'This cursor is not one this server gave; start again from the first page.',
      {
        details: [{ path: 'cursor', message: 'is not a next_cursor of this trail' }],
      },
    );
  }
  // One more than the page tells whether an older page exists.
  const rows = await findAuditEvents(context.db, filters, { after, limit: page.per_page + 1 });
  const events = rows.slice(0, page.per_page);
  const last = events[events.length - 1];
  return {
    events: events.map((row) => presentAuditEvent(row, shown)),
    next_cursor: rows.length > page.per_page && last ? encodeAuditCursor(last) : null,
  };
}

/** `GET audit` (director): a page of the organisation's trail, newest first, filtered. */
export async function listAuditEvents(
  context: AppContext,
  options: { actor: Actor; query: AuditQuery },
): Promise<AuditPageResponse> {
  const { actor, query } = options;
  assertDirector(actor);
  return pageOf(context, filtersOf(context, actor, query), query, { showsOrigin: true });
}

/**
 * `GET audit/history/{object_type}/{object_id}`: one request's (with its retirement's), budget's
 * or user's own history, for whoever may open that object's page (its own read rule decides, 404
 * or 403 as there); what of it a caller sees is objectHistoryView's (the director everything).
 */
export async function listObjectHistory(
  context: AppContext,
  options: { actor: Actor; params: AuditHistoryParams; query: AuditHistoryQuery },
): Promise<AuditPageResponse> {
  const { actor, params } = options;
  // The object's own read rule decides, the director's included: another organisation's is a 404.
  if (params.object_type === 'request') await getRequest(context, { actor, id: params.object_id });
  if (params.object_type === 'budget')
    await assertBudgetReadable(context, { actor, id: params.object_id });
  if (params.object_type === 'user') await readUser(context, { actor, userId: params.object_id });
  const view = objectHistoryView(actor, params);
  return pageOf(
    context,
    {
      organizationId: actor.organization_id,
      objectType: params.object_type,
      objectId: params.object_id,
      // A request's retirement is part of its story (who accounted for the money, and how).
      includesRetirements: params.object_type === 'request',
      excludedActions: view.hiddenActions,
      timezone: context.config.orgTimezone,
    },
    options.query,
    view,
  );
}

const auditColumns = [
  // On the organisation's clock, as the page, its day filters and the other downloads read it.
  { header: 'When', key: 'at', width: 22, style: { numFmt: 'dd/mm/yyyy hh:mm:ss' } },
  { header: 'Who', key: 'actor_name', width: 28 },
  { header: 'Action', key: 'action', width: 26 },
  { header: 'Object', key: 'object_type', width: 16 },
  { header: 'Object id', key: 'object_id', width: 38 },
  {
    header: 'Changes',
    key: 'changes',
    width: 60,
    style: { wrapText: true },
  },
  { header: 'Address', key: 'ip', width: 18 },
  { header: 'Request id', key: 'request_id', width: 26 },
];

/** `GET audit/download` (director): the filtered trail as a streamed xlsx, newest first. */
export async function downloadAuditEvents(
  context: AppContext,
  options: { actor: Actor; query: AuditDownloadQuery },
): Promise<SpreadsheetDownload> {
  const { actor } = options;
  assertDirector(actor);
  const filters = filtersOf(context, actor, options.query);
  return {
    fileName: 'Audit trail.xlsx',
    stream: streamWorkbook<AuditRow>({
      sheetName: 'Audit trail',
      columns: auditColumns,
      batch: ({ after, limit }) =>
        findAuditEvents(context.db, filters, {
          after: after ? { at: after.at_text, id: after.id } : undefined,
          limit,
        }),
      row: (row) => ({
        at: wallClockIn(row.at, context.config.orgTimezone),
        actor_name: row.actor_name,
        // In the page's words (issue 15): "Budget created", "Department: Stem Kits".
        action: auditActionLabel(row.action),
        object_type: auditObjectLabel(row.object_type),
        object_id: row.object_id ?? '',
        changes: auditChangeLines(
          { object_type: row.object_type, changes: row.changes as AuditChanges | null },
          context.config.orgTimezone,
        ).join('\n'),
        ip: row.ip ?? '',
        request_id: row.request_id ?? '',
      }),
    }),
  };
}
