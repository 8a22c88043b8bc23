import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/**
 * A Content-Disposition header naming a file: an ASCII fallback for old clients and the exact
 * UTF-8 name (RFC 6266), so names such as "Asha Staff requests.xlsx" arrive intact.
 */
export function contentDisposition(kind: 'attachment' | 'inline', fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

export const xlsxContentType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A spreadsheet a download makes: its file name and its bytes, streamed as they are written. */
export type SpreadsheetDownload = { fileName: string; stream: Readable };

/** Answers with a spreadsheet as an attachment under its file name. */
export function sendSpreadsheet(reply: FastifyReply, file: SpreadsheetDownload): FastifyReply {
  return reply
    .header('content-type', xlsxContentType)
    .header('content-disposition', contentDisposition('attachment', file.fileName))
    .send(file.stream);
}
