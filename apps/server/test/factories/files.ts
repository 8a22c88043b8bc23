import { fileExtension, matchesFileSignature } from '@imprest/domain/files.ts';
import type { FastifyInstance } from 'fastify';
import { auth } from '../helpers.ts';

/** The first bytes of a genuine file of each kind, as the upload's signature check wants them. */
const genuineStarts: Record<string, Buffer> = {
  pdf: Buffer.from('%PDF-1.4\n', 'latin1'),
  png: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  jpg: Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
  jpeg: Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
  gif: Buffer.from('GIF89a', 'latin1'),
  webp: Buffer.from('RIFF\x24\x00\x00\x00WEBPVP8 ', 'latin1'),
  zip: Buffer.from('PK\x03\x04', 'latin1'),
  docx: Buffer.from('PK\x03\x04', 'latin1'),
  xlsx: Buffer.from('PK\x03\x04', 'latin1'),
  doc: Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
  xls: Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
  csv: Buffer.alloc(0),
};

/**
 * Contents a file named `fileName` may have: `body` behind the genuine first bytes of its kind
 * (`%PDF-1.4` for a .pdf, the PNG signature for a .png…), or `body` as it is when it already
 * starts with them. Tests name what a file says; the signature check sees a real file.
 */
export function genuineFile(fileName: string, body: Buffer | string = fileName): Buffer {
  const content = Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1');
  const extension = fileExtension(fileName);
  if (matchesFileSignature(extension, content)) return content;
  return Buffer.concat([genuineStarts[extension] ?? Buffer.alloc(0), content]);
}

/** A presigned POST's address and fields, as `GET files/presigned-post-url` answers them. */
export type PresignedPost = {
  url: string;
  fields: Record<string, string>;
  file_name: string;
  max_bytes: number;
};

export async function presignPost(
  app: FastifyInstance,
  user: { token: string },
  fileName: string,
): Promise<PresignedPost> {
  const response = await app.inject({
    method: 'GET',
    url: `/api/v1/files/presigned-post-url?file_name=${encodeURIComponent(fileName)}`,
    headers: auth(user),
  });
  if (response.statusCode !== 200)
    throw new Error(`presign answered ${response.statusCode}: ${response.body}`);
  return response.json();
}

/**
 * POSTs a multipart body to a presigned address as a browser does: the fields, then the file in
 * `file`, last (decisions §8). `fields` may be altered to try forgeries.
 */
export async function postFile(
  app: FastifyInstance,
  post: { url: string; fields: Record<string, string> },
  content: Buffer | string,
  fileName = 'upload.bin',
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(post.fields)) form.append(name, value);
  form.append('file', new Blob([content]), fileName);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return app.inject({
    method: 'POST',
    url: post.url,
    headers: { 'content-type': request.headers.get('content-type') ?? '' },
    payload: Buffer.from(await request.arrayBuffer()),
  });
}

/**
 * Uploads a file through the API and the local store; answers its stored name. `body` is made a
 * genuine file of `fileName`'s kind (`genuineFile`); send other bytes with `postFile`.
 */
export async function uploaded(
  app: FastifyInstance,
  user: { token: string },
  fileName: string,
  body: Buffer | string = fileName,
): Promise<string> {
  const post = await presignPost(app, user, fileName);
  const response = await postFile(app, post, genuineFile(fileName, body), fileName);
  if (response.statusCode !== 204)
    throw new Error(`upload answered ${response.statusCode}: ${response.body}`);
  return post.file_name;
}
