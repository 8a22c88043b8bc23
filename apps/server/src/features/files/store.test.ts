import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../config.ts';
import { createFileStore, createLocalSigner } from './store.ts';

// The S3 store signs locally (no network): these check the shape S3 expects of what it signs.
describe('the S3 file store', () => {
  const config = readConfig({
    S3_BUCKET: 'imprest-files',
    S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
    S3_SECRET_ACCESS_KEY: 'secret-example',
    JWT_SECRET: 'x'.repeat(40),
  });
  const store = createFileStore(config, createLocalSigner(new Uint8Array(32)));
  const key = '0b6f3c4e-1d2a-4b8c-9e0f-123456789abc/Ab3dE9xinvoice.pdf';

  it('presigns a POST to the bucket in eu-west-1 that fixes the key, size range and expiry', async () => {
    const post = await store.presignPost(key, { maxBytes: 20 * 1024 * 1024, expiresSeconds: 900 });
    expect(post.url).toBe('https://imprest-files.s3.eu-west-1.amazonaws.com/');
    expect(post.fields).toMatchObject({ key, bucket: 'imprest-files' });
    expect(post.fields['X-Amz-Signature']).toMatch(/^[0-9a-f]{64}$/);
    const policy = JSON.parse(Buffer.from(post.fields.Policy ?? '', 'base64').toString()) as {
      expiration: string;
      conditions: unknown[];
    };
    expect(policy.conditions).toContainEqual(['content-length-range', 1, 20 * 1024 * 1024]);
    expect(policy.conditions).toContainEqual(['eq', '$key', key]);
    const lifetime = new Date(policy.expiration).getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(890_000);
    expect(lifetime).toBeLessThanOrEqual(900_000);
  });

  it('presigns a GET that expires in five minutes and shows the file inline', async () => {
    const url = new URL(
      await store.presignGet(key, {
        expiresSeconds: 300,
        fileName: 'invoice.pdf',
        contentType: 'application/pdf',
        disposition: 'inline',
      }),
    );
    expect(url.host).toBe('imprest-files.s3.eu-west-1.amazonaws.com');
    expect(url.pathname).toBe(`/${key}`);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('300');
    expect(url.searchParams.get('response-content-disposition')).toBe(
      `inline; filename="invoice.pdf"; filename*=UTF-8''invoice.pdf`,
    );
    expect(url.searchParams.get('response-content-type')).toBe('application/pdf');
  });

  it('presigns a GET that makes S3 serve a document as an attachment of its own type', async () => {
    const url = new URL(
      await store.presignGet(key.replace('.pdf', '.docx'), {
        expiresSeconds: 300,
        fileName: 'budget.docx',
        contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        disposition: 'attachment',
      }),
    );
    expect(url.searchParams.get('response-content-disposition')).toBe(
      `attachment; filename="budget.docx"; filename*=UTF-8''budget.docx`,
    );
    expect(url.searchParams.get('response-content-type')).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
  });
});

// An S3 stand-in on a local port: the store's reads are real S3 requests, answered from memory.
describe('the S3 file store reading the first bytes of an object', () => {
  const objects = new Map<string, Buffer>([
    ['/imprest-files/org/Ab3dE9xreceipt.pdf', Buffer.from('%PDF-1.7\n' + 'x'.repeat(1000))],
    ['/imprest-files/org/Ab3dE9xshort.csv', Buffer.from('a,b\n')],
  ]);
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((request, response) => {
    seen.push(request.headers);
    const body = objects.get(request.url?.split('?')[0] ?? '');
    if (request.method !== 'GET' || !body) {
      response.writeHead(404, { 'content-type': 'application/xml' });
      response.end('<Error><Code>NoSuchKey</Code><Message>Not found</Message></Error>');
      return;
    }
    const [, from, to] = /^bytes=(\d+)-(\d+)$/.exec(request.headers.range ?? '') ?? [];
    const start = Number(from ?? 0);
    const end = Math.min(Number(to ?? body.length - 1), body.length - 1);
    response.writeHead(206, {
      'content-type': 'application/octet-stream',
      'content-length': end - start + 1,
      'content-range': `bytes ${start}-${end}/${body.length}`,
    });
    response.end(body.subarray(start, end + 1));
  });
  let store: ReturnType<typeof createFileStore>;

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    store = createFileStore(
      readConfig({
        S3_BUCKET: 'imprest-files',
        S3_ENDPOINT: `http://127.0.0.1:${port}`,
        S3_FORCE_PATH_STYLE: 'true',
        S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
        S3_SECRET_ACCESS_KEY: 'secret-example',
        JWT_SECRET: 'x'.repeat(40),
      }),
      createLocalSigner(new Uint8Array(32)),
    );
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('asks for a range, not the whole object', async () => {
    seen.length = 0;
    const head = await store.head('org/Ab3dE9xreceipt.pdf', 16);
    expect(Buffer.from(head ?? []).toString('latin1')).toBe('%PDF-1.7\nxxxxxxx');
    expect(seen.map((headers) => headers.range)).toEqual(['bytes=0-15']);
  });

  it('answers the whole of a shorter object, and null for a missing one', async () => {
    expect(Buffer.from((await store.head('org/Ab3dE9xshort.csv', 4096)) ?? []).toString()).toBe(
      'a,b\n',
    );
    expect(await store.head('org/Ab3dE9xnothing.pdf', 16)).toBeNull();
  });
});
