import type { FastifyInstance } from 'fastify';
import { auth } from '../helpers.ts';

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

/** Uploads a file through the API and the local store; answers its stored name. */
export async function uploaded(
  app: FastifyInstance,
  user: { token: string },
  fileName: string,
  content: Buffer | string = `%PDF-1.4 ${fileName}`,
): Promise<string> {
  const post = await presignPost(app, user, fileName);
  const response = await postFile(app, post, content, fileName);
  if (response.statusCode !== 204)
    throw new Error(`upload answered ${response.statusCode}: ${response.body}`);
  return post.file_name;
}
