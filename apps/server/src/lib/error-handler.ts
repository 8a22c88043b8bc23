import type { FastifyError, FastifyInstance } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
} from 'fastify-type-provider-zod';
import { badInputSqlStates, sqlStateOf } from './database-errors.ts';
import { AppError, errorStatus } from './errors.ts';

type Detail = { path: string; message: string };

/**
 * What @fastify/busboy throws, as plain errors without a status, when a multipart body breaks off
 * or has no boundary: the client's fault, so a 400.
 */
const malformedMultipart =
  /^(Unexpected end of multipart data|Multipart: Boundary not found|.+ terminated early due to unexpected end of multipart data)$/;

function pathOf(instancePath: string, params: unknown): string {
  const base = instancePath.replace(/^\//, '').replaceAll('/', '.');
  const missing = (params as { issue?: { path?: unknown[] } } | undefined)?.issue?.path;
  if (!base && Array.isArray(missing)) return missing.join('.');
  return base;
}

/** Maps every failure to the error body of decisions §2; a client never sees a stack trace. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      if (error.headers) void reply.headers(error.headers);
      return reply
        .status(errorStatus[error.code])
        .send({ error: error.message, details: error.details });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details: Detail[] = error.validation.map((issue) => ({
        path: pathOf(issue.instancePath, issue.params),
        message: issue.message ?? 'is invalid',
      }));
      const first = details[0];
      const where = error.validationContext === 'body' ? '' : ` in the ${error.validationContext}`;
      const summary = first
        ? `${first.path ? `${first.path}: ` : ''}${first.message}`
        : 'invalid input';
      return reply.status(400).send({ error: `Invalid input${where}: ${summary}`, details });
    }
    if (error.validationContext && (error.statusCode ?? 500) >= 500) {
      // The validator itself threw on this input (e.g. a message built from a 5,000-level array):
      // still bad input (decisions §2: never a 500 for it), but logged, since a schema should not throw.
      request.log.error({ err: error }, 'validation threw');
      return reply
        .status(400)
        .send({ error: `Invalid input: the ${error.validationContext} could not be checked.` });
    }
    const sqlState = sqlStateOf(error);
    const badInput = sqlState === undefined ? undefined : badInputSqlStates[sqlState];
    if (badInput) {
      request.log.warn({ err: error }, 'the database refused a value of the input');
      return reply.status(400).send({ error: badInput });
    }
    if (error.statusCode === undefined && malformedMultipart.test(error.message)) {
      return reply.status(400).send({ error: 'The multipart body is malformed.' });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, cause: error.cause }, 'response did not match its schema');
      return reply
        .status(500)
        .send({ error: 'Something went wrong on our side. Please try again.' });
    }
    const status = error.statusCode ?? 500;
    if (status < 500) {
      const messages: Record<string, string> = {
        FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
        FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty; send a JSON object.',
        FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large.',
        FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Send the request body as application/json.',
      };
      const message = messages[error.code] ?? (error.message || 'Bad request');
      // Body problems are bad input (issue: malformed, oversized → 400).
      const mapped = error.code?.startsWith('FST_ERR_CTP_') ? 400 : status;
      return reply.status(mapped).send({ error: message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ error: 'Something went wrong on our side. Please try again.' });
  });
}
