import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { AppError } from './errors.ts';

/**
 * The entity tag of a document a client replaces whole (the exchange rates, the approval matrix):
 * a hash of its JSON as the client reads it, so it changes exactly when the document does
 * (docs/decisions/0035).
 */
export function entityTag(document: unknown): string {
  const hash = createHash('sha256').update(JSON.stringify(document)).digest('base64url');
  return `"${hash.slice(0, 27)}"`;
}

/** Answers a document with its entity tag in `ETag`. */
export function sendTagged<Document>(reply: FastifyReply, document: Document): FastifyReply {
  return reply.header('etag', entityTag(document)).send(document);
}

/** The opaque tags of an `If-Match` header; a gateway that compresses may weaken them (`W/`). */
function tagsOf(header: string): string[] {
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .filter(Boolean);
}

/**
 * Refuses a replacement made on a version other than the stored one (RFC 9110 `If-Match`, 412):
 * someone else saved the document since the client read it, and replacing it would silently undo
 * their change. A call without the header replaces whatever is stored, as before.
 */
export function assertIfMatch(header: string | undefined, current: string, message: string): void {
  if (header === undefined) return;
  const tags = tagsOf(header);
  if (tags.includes('*') || tags.includes(current)) return;
  throw new AppError('precondition_failed', message, { headers: { etag: current } });
}
