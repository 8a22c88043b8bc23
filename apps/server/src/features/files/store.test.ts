import { describe, expect, it } from 'vitest';
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
      }),
    );
    expect(url.host).toBe('imprest-files.s3.eu-west-1.amazonaws.com');
    expect(url.pathname).toBe(`/${key}`);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('300');
    expect(url.searchParams.get('response-content-disposition')).toBe(
      `inline; filename="invoice.pdf"; filename*=UTF-8''invoice.pdf`,
    );
  });
});
