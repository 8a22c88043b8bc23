import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import fastifyMultipart from '@fastify/multipart';
import { isUuid } from '@imprest/domain/api/common.ts';
import {
  presignedGetQuery,
  presignedGetResponse,
  presignedPostQuery,
  presignedPostResponse,
} from '@imprest/domain/api/files.ts';
import {
  contentTypeOf,
  fileExtension,
  fileSignatureBytes,
  isShownInline,
  isStoredFileName,
  matchesFileSignature,
  maxUploadBytes,
} from '@imprest/domain/files.ts';
import { displayFileName } from '@imprest/domain/requests.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { contentDisposition } from '../../lib/attachment.ts';
import { actorOf } from '../../lib/authenticate.ts';
import { errorResponses } from '../../lib/error-responses.ts';
import { perUser, rateLimits } from '../../lib/rate-limit.ts';
import { AppError } from '../../lib/errors.ts';
import { markUploaded } from './queries.ts';
import { filesOf, presignDownload, presignUpload, signatureMismatch } from './service.ts';
import { localObjectPath, localPath, localUploadPath, readHead } from './store.ts';

const security = [{ bearer: [] }];

/** `<organization id>/<stored name>`, the only keys the local store holds. */
function splitKey(key: string): { organizationId: string; name: string } | null {
  const [organizationId, name, ...rest] = key.split('/');
  if (rest.length > 0 || !organizationId || !name) return null;
  if (!isUuid(organizationId) || !isStoredFileName(name)) return null;
  return { organizationId, name };
}

/**
 * The policy a stored file is served under (ASVS 5.2, 3.4): an uploaded file opened on its own is
 * a sandboxed document of an opaque origin that may run nothing and load nothing but itself, so
 * even a file that slipped past the checks cannot script the app's origin. Images and PDFs still
 * render in the browser's own viewer (which styles its image document inline), and the app's own
 * pages may frame a PDF for the preview dialog, no one else.
 */
const storedFilePolicy = [
  'sandbox',
  "default-src 'none'",
  "img-src 'self'",
  "style-src 'unsafe-inline'",
  "frame-ancestors 'self'",
].join('; ');

const objectQuery = z.object({
  key: z.string().max(400),
  expires: z.coerce.number().int(),
  signature: z.string().max(100),
});

/**
 * Files (spec §7, decisions §6): presigned POST and GET addresses for the signed-in user; and, when
 * no S3 bucket is configured, the local store those addresses point at, which trusts the signed
 * policy and link alone, as S3 does.
 */
export function fileRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['files'];

    app.get(
      '/files/presigned-post-url',
      {
        // Each policy reserves a stored name and up to 20 MB (docs/decisions/0012).
        config: { rateLimit: perUser(rateLimits.uploadSlotsPerUser) },
        schema: {
          tags,
          summary: 'Where to upload one file: a multipart POST of `fields`, then `file`, last',
          security,
          querystring: presignedPostQuery,
          response: { 200: presignedPostResponse, ...errorResponses(400, 401, 429) },
        },
      },
      async (request) =>
        presignUpload(context, { actor: actorOf(request), fileName: request.query.file_name }),
    );

    app.get(
      '/files/presigned-get-url',
      {
        schema: {
          tags,
          summary: 'A five-minute link to a stored file you may read',
          security,
          querystring: presignedGetQuery,
          response: { 200: presignedGetResponse, ...errorResponses(400, 401, 404) },
        },
      },
      async (request) =>
        presignDownload(context, { actor: actorOf(request), fileName: request.query.file_name }),
    );

    if (context.config.s3) return;
    const root = path.join(context.config.dataDir, 'files');
    const incoming = path.join(root, '.incoming');
    const { signer } = filesOf(context);

    await app.register(fastifyMultipart, {
      limits: { fileSize: maxUploadBytes, files: 1, fields: 10, fieldSize: 4096, parts: 12 },
    });

    app.post(
      localUploadPath.replace('/api/v1', ''),
      {
        // No session: the HMAC-signed policy or link is the authority (docs/decisions/0007).
        config: { isPublic: true },
        schema: {
          tags,
          summary: 'The local store: receives a file under a signed upload policy (no token)',
          consumes: ['multipart/form-data'],
          response: { 204: z.null(), ...errorResponses(400, 403, 409) },
        },
      },
      async (request, reply) => {
        if (!request.isMultipart())
          throw new AppError('bad_request', 'Send the file as multipart/form-data.');
        const fields: Record<string, string> = {};
        for await (const part of request.parts()) {
          if (part.type === 'field') {
            fields[part.fieldname] = String(part.value);
            continue;
          }
          if (part.fieldname !== 'file')
            throw new AppError('bad_request', 'The file must be sent in the field "file".');
          const policy = signer.readPolicy(fields.policy ?? '', fields.signature ?? '');
          if (!policy) throw new AppError('forbidden', 'The upload policy is not valid.');
          if (policy.expires < Date.now() / 1000)
            throw new AppError('forbidden', 'The upload policy has expired.');
          const key = splitKey(policy.key);
          if (!key || fields.key !== policy.key)
            throw new AppError('forbidden', 'The key does not match the upload policy.');

          await fs.mkdir(incoming, { recursive: true });
          const temporary = path.join(incoming, randomUUID());
          try {
            await pipeline(part.file, createWriteStream(temporary));
            if (part.file.truncated) {
              throw new AppError(
                'bad_request',
                `The file is larger than ${policy.max_bytes / 1024 / 1024} MB.`,
              );
            }
            const { size } = await fs.stat(temporary);
            if (size === 0) throw new AppError('bad_request', 'The file is empty.');
            // ASVS 5.2.2: the contents must be what the extension says before the file is kept.
            const extension = fileExtension(key.name);
            const head = await readHead(temporary, fileSignatureBytes(extension));
            if (!head || !matchesFileSignature(extension, head))
              throw new AppError('bad_request', signatureMismatch(key.name));
            const target = localPath(root, policy.key);
            await fs.mkdir(path.dirname(target), { recursive: true });
            // link() never replaces: a stored file, perhaps a receipt already attached, stays as it was.
            await fs.link(temporary, target).catch((error: NodeJS.ErrnoException) => {
              if (error.code === 'EEXIST')
                throw new AppError('conflict', 'This file was already uploaded.');
              throw error;
            });
            await markUploaded(context.db, { ...key, size });
          } finally {
            await fs.rm(temporary, { force: true });
          }
          return reply.status(204).send(null);
        }
        throw new AppError('bad_request', 'No file was sent in the field "file".');
      },
    );

    app.get(
      localObjectPath.replace('/api/v1', ''),
      {
        // No session: the HMAC-signed policy or link is the authority (docs/decisions/0007).
        config: { isPublic: true },
        schema: {
          tags,
          summary: 'The local store: a stored file, through a signed link (no token)',
          querystring: objectQuery,
          produces: ['application/octet-stream'],
          response: {
            200: z
              .unknown()
              .describe(
                'The file under its display name: inline for images and PDFs, else an attachment',
              ),
            ...errorResponses(400, 403, 404),
          },
        },
      },
      async (request, reply) => {
        const { key, expires, signature } = request.query;
        if (!signer.linkMatches(key, expires, signature))
          throw new AppError('forbidden', 'The link is not valid.');
        if (expires < Date.now() / 1000) throw new AppError('forbidden', 'The link has expired.');
        const parts = splitKey(key);
        if (!parts) throw new AppError('not_found', 'File not found!');
        const file = localPath(root, key);
        const stat = await fs.stat(file).catch(() => null);
        if (!stat?.isFile()) throw new AppError('not_found', 'File not found!');
        const disposition = isShownInline(parts.name) ? 'inline' : 'attachment';
        return reply
          .header('content-type', contentTypeOf(parts.name))
          .header('content-length', stat.size)
          .header(
            'content-disposition',
            contentDisposition(disposition, displayFileName(parts.name)),
          )
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', storedFilePolicy)
          .header('x-frame-options', 'SAMEORIGIN')
          .header('cache-control', 'private, max-age=300')
          .send(createReadStream(file));
      },
    );
  };
}
