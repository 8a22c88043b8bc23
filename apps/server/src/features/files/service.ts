import { randomInt } from 'node:crypto';
import { fileNamePrefixLength } from '@imprest/domain/constants.ts';
import {
  contentTypeOf,
  downloadLinkSeconds,
  fileExtension,
  fileSignatureBytes,
  isShownInline,
  matchesFileSignature,
  maxUploadBytes,
  sanitizeFileName,
  uploadPolicySeconds,
} from '@imprest/domain/files.ts';
import { isAdmin } from '@imprest/domain/permissions.ts';
import { displayFileName } from '@imprest/domain/requests.ts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import type { Actor } from '../../lib/authenticate.ts';
import { AppError } from '../../lib/errors.ts';
import { findFile, findFiles, holdersOfFile, insertFile } from './queries.ts';
import {
  createFileStore,
  createLocalSigner,
  fileKey,
  type FileStore,
  type LocalSigner,
} from './store.ts';

const stores = new WeakMap<AppContext, { store: FileStore; signer: LocalSigner }>();

/** The file store and local signer of a running app, made once. */
export function filesOf(context: AppContext): { store: FileStore; signer: LocalSigner } {
  let made = stores.get(context);
  if (!made) {
    const signer = createLocalSigner(context.jwtKey);
    made = { signer, store: createFileStore(context.config, signer) };
    stores.set(context, made);
  }
  return made;
}

const alphanumerics = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function randomPrefix(): string {
  return Array.from(
    { length: fileNamePrefixLength },
    () => alphanumerics[randomInt(alphanumerics.length)],
  ).join('');
}

/**
 * An upload policy for one file (decisions §6): a fresh stored name recorded against the caller,
 * and a presigned POST that may store exactly that object, up to 20 MB, for 15 minutes.
 */
export async function presignUpload(
  context: AppContext,
  options: { actor: Actor; fileName: string },
): Promise<{ url: string; fields: Record<string, string>; file_name: string; max_bytes: number }> {
  const { actor } = options;
  const name = `${randomPrefix()}${sanitizeFileName(options.fileName)}`;
  await insertFile(context.db, {
    organization_id: actor.organization_id,
    name,
    original_name: options.fileName,
    uploaded_by: actor.id,
  });
  const { url, fields } = await filesOf(context).store.presignPost(
    fileKey(actor.organization_id, name),
    { maxBytes: maxUploadBytes, expiresSeconds: uploadPolicySeconds },
  );
  return { url, fields, file_name: name, max_bytes: maxUploadBytes };
}

/**
 * A five-minute link to a stored file, for whoever may read a request or retirement holding it
 * (its owner, or an admin of the organisation) or its uploader (decisions §6, §9). Anyone else, and
 * other organisations, learn only that there is no such file.
 */
export async function presignDownload(
  context: AppContext,
  options: { actor: Actor; fileName: string },
): Promise<{ url: string }> {
  const { actor } = options;
  const notFound = new AppError('not_found', 'File not found!');
  const file = await findFile(context.db, {
    organizationId: actor.organization_id,
    name: options.fileName,
  });
  if (!file) throw notFound;
  if (file.uploaded_by !== actor.id) {
    // Held by a request or retirement the caller may read: its owner's, or any, for an admin.
    const holders = await holdersOfFile(context.db, {
      organizationId: actor.organization_id,
      name: file.name,
    });
    const mayRead = holders.length > 0 && (isAdmin(actor.role) || holders.includes(actor.id));
    if (!mayRead) throw notFound;
  }
  const url = await filesOf(context).store.presignGet(fileKey(actor.organization_id, file.name), {
    expiresSeconds: downloadLinkSeconds,
    fileName: displayFileName(file.name),
    contentType: contentTypeOf(file.name),
    disposition: isShownInline(file.name) ? 'inline' : 'attachment',
  });
  return { url };
}

/** The refusal of a file whose first bytes are not what its extension promises; named or not. */
export function signatureMismatch(storedName: string, isNamed = false): string {
  const subject = isNamed
    ? `The contents of ${displayFileName(storedName)}`
    : "The file's contents";
  return `${subject} do not match its .${fileExtension(storedName)} extension.`;
}

/**
 * Checks the files a request or retirement is about to hold: each was uploaded by the caller and
 * is in the store with contents that match its extension (read from its first bytes only: with S3
 * the server never sees the upload itself), or is already held by `carried` (the version being
 * resubmitted). A bad name is a 400 naming it, before anything changes.
 */
export async function checkAttachments(
  context: AppContext,
  db: Executor,
  options: { actor: Actor; names: string[]; carried?: string[] },
): Promise<string[]> {
  const names = [...new Set(options.names)];
  const carried = new Set(options.carried ?? []);
  const fresh = names.filter((name) => !carried.has(name));
  const rows = await findFiles(db, { organizationId: options.actor.organization_id, names: fresh });
  const byName = new Map(rows.map((row) => [row.name, row]));
  const { store } = filesOf(context);
  for (const name of fresh) {
    const row = byName.get(name);
    const head =
      row?.uploaded_by === options.actor.id
        ? await store.head(
            fileKey(options.actor.organization_id, name),
            fileSignatureBytes(fileExtension(name)),
          )
        : null;
    if (!head) {
      throw new AppError('bad_request', `The file ${displayFileName(name)} was not uploaded.`, {
        details: [{ path: 'file_paths', message: `Unknown file: ${name}` }],
      });
    }
    if (!matchesFileSignature(fileExtension(name), head)) {
      throw new AppError('bad_request', signatureMismatch(name, true), {
        details: [{ path: 'file_paths', message: `Contents do not match the extension: ${name}` }],
      });
    }
  }
  return names;
}
