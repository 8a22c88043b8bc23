import { createHmac, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import type { Config } from '../../config.ts';
import { contentDisposition } from '../../lib/attachment.ts';

/**
 * Where uploaded files live (decisions §6): S3 when S3_BUCKET is set, else DATA_DIR/files. Either
 * way the browser talks to the store directly through presigned POSTs and GETs; the API only signs.
 */
export type FileStore = {
  /** A multipart POST (the fields, then `file`) that may store exactly `key`, up to `maxBytes`. */
  presignPost(
    key: string,
    options: { maxBytes: number; expiresSeconds: number },
  ): Promise<{ url: string; fields: Record<string, string> }>;
  /**
   * A link that reads `key` until it expires, served as `contentType` under `fileName`, either
   * shown by the browser (`inline`) or saved (`attachment`).
   */
  presignGet(
    key: string,
    options: {
      expiresSeconds: number;
      fileName: string;
      contentType: string;
      disposition: 'inline' | 'attachment';
    },
  ): Promise<string>;
  /**
   * The first `length` bytes of the object stored under `key` (fewer when it is shorter), or null
   * when nothing is stored there: enough to check its signature without reading it all.
   */
  head(key: string, length: number): Promise<Uint8Array | null>;
};

/** An organisation's stored file name as a store key. */
export function fileKey(organizationId: string, storedName: string): string {
  return `${organizationId}/${storedName}`;
}

// ---------------------------------------------------------------------------------------------
// The local store: signed policies checked by this server (features/files/routes.ts).

/** The upload and download routes of the local store, under /api/v1. */
export const localUploadPath = '/api/v1/files/upload';
export const localObjectPath = '/api/v1/files/object';

/** What a local upload policy allows, signed into the POST's `policy` and `signature` fields. */
export type UploadPolicy = { key: string; max_bytes: number; expires: number };

/**
 * Signs and checks the local store's policies and links with a key derived from the JWT key, which
 * every process of a deployment shares (docs/decisions/0002), under a label of its own.
 */
export function createLocalSigner(jwtKey: Uint8Array) {
  const signingKey = createHmac('sha256', jwtKey).update('imprest local file store').digest();
  const sign = (text: string) => createHmac('sha256', signingKey).update(text).digest('base64url');
  const matches = (text: string, signature: string) => {
    const expected = Buffer.from(sign(text));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  };
  return {
    policy(policy: UploadPolicy): { policy: string; signature: string } {
      const encoded = Buffer.from(JSON.stringify(policy)).toString('base64url');
      return { policy: encoded, signature: sign(encoded) };
    },
    /** The policy a POST carries, or null when it is forged or malformed (not when expired). */
    readPolicy(encoded: string, signature: string): UploadPolicy | null {
      if (!matches(encoded, signature)) return null;
      try {
        const value = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as unknown;
        if (typeof value !== 'object' || value === null) return null;
        const { key, max_bytes: maxBytes, expires } = value as Record<string, unknown>;
        if (typeof key !== 'string' || typeof maxBytes !== 'number' || typeof expires !== 'number')
          return null;
        return { key, max_bytes: maxBytes, expires };
      } catch {
        return null;
      }
    },
    link(key: string, expires: number): string {
      return sign(`get\n${key}\n${expires}`);
    },
    linkMatches(key: string, expires: number, signature: string): boolean {
      return matches(`get\n${key}\n${expires}`, signature);
    },
  };
}
export type LocalSigner = ReturnType<typeof createLocalSigner>;

/** The file a key names inside DATA_DIR/files; keys are `<uuid>/<stored name>`, checked before. */
export function localPath(root: string, key: string): string {
  const resolved = path.resolve(root, key);
  if (!resolved.startsWith(`${path.resolve(root)}${path.sep}`)) throw new Error('key escapes root');
  return resolved;
}

function createLocalStore(root: string, signer: LocalSigner): FileStore {
  const nowSeconds = () => Math.floor(Date.now() / 1000);
  return {
    async presignPost(key, { maxBytes, expiresSeconds }) {
      const signed = signer.policy({
        key,
        max_bytes: maxBytes,
        expires: nowSeconds() + expiresSeconds,
      });
      return { url: localUploadPath, fields: { key, ...signed } };
    },
    async presignGet(key, { expiresSeconds }) {
      const expires = nowSeconds() + expiresSeconds;
      const query = new URLSearchParams({
        key,
        expires: String(expires),
        signature: signer.link(key, expires),
      });
      return `${localObjectPath}?${query.toString()}`;
    },
    async head(key, length) {
      return readHead(localPath(root, key), length);
    },
  };
}

/** The first `length` bytes of a file (fewer when it is shorter), or null when there is none. */
export async function readHead(file: string, length: number): Promise<Uint8Array | null> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return null;
    throw error;
  }
  try {
    if (!(await handle.stat()).isFile()) return null;
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return new Uint8Array(buffer.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

// ---------------------------------------------------------------------------------------------
// S3

/**
 * The AWS SDK's modules, loaded with the first call that needs them: about 25 MB that a server
 * storing files locally never carries (issue 13: memory at idle).
 */
async function loadS3(s3: NonNullable<Config['s3']>) {
  const [{ GetObjectCommand, S3Client }, { createPresignedPost }, { getSignedUrl }] =
    await Promise.all([
      import('@aws-sdk/client-s3'),
      import('@aws-sdk/s3-presigned-post'),
      import('@aws-sdk/s3-request-presigner'),
    ]);
  const client: S3Client = new S3Client({
    region: s3.region,
    endpoint: s3.endpoint,
    forcePathStyle: s3.forcePathStyle,
    credentials:
      s3.accessKeyId && s3.secretAccessKey
        ? { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey }
        : undefined,
  });
  return { client, GetObjectCommand, createPresignedPost, getSignedUrl };
}

function createS3Store(s3: NonNullable<Config['s3']>): FileStore {
  let loaded: ReturnType<typeof loadS3> | undefined;
  const sdk = () => (loaded ??= loadS3(s3));
  return {
    async presignPost(key, { maxBytes, expiresSeconds }) {
      const { client, createPresignedPost } = await sdk();
      return createPresignedPost(client, {
        Bucket: s3.bucket,
        Key: key,
        Conditions: [
          ['content-length-range', 1, maxBytes],
          ['eq', '$key', key],
        ],
        Expires: expiresSeconds,
      });
    },
    async presignGet(key, { expiresSeconds, fileName, contentType, disposition }) {
      // S3 answers with the type and disposition the link names, whatever the uploader declared,
      // so a file not previewed is saved rather than rendered. A presigned link cannot make S3 add
      // a Content-Security-Policy or nosniff header: put those on the bucket's responses (e.g. a
      // CDN response-headers policy) where a deployment needs them; the local store sends both.
      const { client, GetObjectCommand, getSignedUrl } = await sdk();
      return getSignedUrl(
        client,
        new GetObjectCommand({
          Bucket: s3.bucket,
          Key: key,
          ResponseContentType: contentType,
          ResponseContentDisposition: contentDisposition(disposition, fileName),
        }),
        { expiresIn: expiresSeconds },
      );
    },
    async head(key, length) {
      const { client, GetObjectCommand } = await sdk();
      try {
        // A ranged GET: only the bytes a signature check needs cross the network.
        const response = await client.send(
          new GetObjectCommand({ Bucket: s3.bucket, Key: key, Range: `bytes=0-${length - 1}` }),
        );
        if (!response.Body) return new Uint8Array();
        const bytes = await response.Body.transformToByteArray();
        return bytes.subarray(0, length);
      } catch (error) {
        const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata
          ?.httpStatusCode;
        if (status === 404 || status === 403) return null;
        // An empty object has no byte 0: there is a file, and it matches no signature.
        if (status === 416) return new Uint8Array();
        throw error;
      }
    },
  };
}

/** The store this configuration asks for. */
export function createFileStore(config: Config, signer: LocalSigner): FileStore {
  return config.s3
    ? createS3Store(config.s3)
    : createLocalStore(path.join(config.dataDir, 'files'), signer);
}
