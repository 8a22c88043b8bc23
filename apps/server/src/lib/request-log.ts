import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/** A request id a client or proxy may choose: short, plain characters only (never logged raw otherwise). */
const acceptableRequestId = /^[\w.:-]{1,100}$/;

/** The request's id: the `x-request-id` it came with when acceptable, else a new UUID. */
export function requestIdOf(request: IncomingMessage): string {
  const header = request.headers['x-request-id'];
  const given = Array.isArray(header) ? header[0] : header;
  return given && acceptableRequestId.test(given) ? given : randomUUID();
}

/**
 * A script, style or icon of the web app served as asked: a page load fetches dozens, and a short
 * session wrote thousands of such lines at info, burying the API's. The page itself (a path without
 * an extension, answered with index.html) and every failure stay at info.
 */
function isWebFile(request: FastifyRequest, reply: FastifyReply): boolean {
  if (request.url.startsWith('/api/') || reply.statusCode >= 400) return false;
  const pathname = request.url.split('?')[0] ?? '';
  return /\.[\w]+$/.test(pathname);
}

/**
 * One JSON line per request (issue 14): its id, method, URL with secrets redacted (the logger's
 * serializer), status, duration, and who asked (user and organisation) when signed in. Fastify's
 * own two lines per request are replaced by this one; the web app's files are logged at debug.
 */
export class RequestLog extends LogController {
  override incomingRequest(): void {
    // The completed line says all.
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    const line = {
      req: request,
      res: reply,
      responseTime: Math.round(reply.elapsedTime * 10) / 10,
      ...(request.actor
        ? { user_id: request.actor.id, organization_id: request.actor.organization_id }
        : {}),
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else if (isWebFile(request, reply)) reply.log.debug(line, 'request completed');
    else reply.log.info(line, 'request completed');
  }
}
