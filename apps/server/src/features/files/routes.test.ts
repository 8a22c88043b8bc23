import fs from 'node:fs/promises';
import path from 'node:path';
import { maxUploadBytes } from '@imprest/domain/files.ts';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { files, requests } from '../../db/schema.ts';
import { genuineFile, postFile, presignPost, uploaded } from '../../../test/factories/files.ts';
import {
  buildStaffedOrganization,
  type StaffedOrganization,
} from '../../../test/factories/organizations.ts';
import { requestBody, review, submit, submitted } from '../../../test/factories/requests.ts';
import { auth, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { createLocalSigner, fileKey, localObjectPath } from './store.ts';

// Files through the API and the local store (decisions §6), on real PostgreSQL and a real folder.

let t: TestApp;
let org: StaffedOrganization;
let elsewhere: StaffedOrganization;

beforeAll(async () => {
  t = await createTestApp();
  org = await buildStaffedOrganization(t.db, { name: 'Files Org' });
  elsewhere = await buildStaffedOrganization(t.db, { name: 'Elsewhere' });
});

const storedPath = (organizationId: string, name: string) =>
  path.join(t.context.config.dataDir, 'files', fileKey(organizationId, name));
const fileRow = async (name: string) =>
  (
    await t.db
      .select()
      .from(files)
      .where(and(eq(files.organization_id, org.organizationId), eq(files.name, name)))
  )[0];
const linkFor = (user: TestUser, name: string) =>
  t.app.inject({
    method: 'GET',
    url: `/api/v1/files/presigned-get-url?file_name=${encodeURIComponent(name)}`,
    headers: auth(user),
  });
const follow = (url: string) => t.app.inject({ method: 'GET', url });

describe('GET files/presigned-post-url', () => {
  it('answers a local upload policy for a fresh stored name, recorded against the caller', async () => {
    const post = await presignPost(t.app, org.staff, 'Hotel receipt (May).PDF');
    expect(post.url).toBe('/api/v1/files/upload');
    expect(post.file_name).toMatch(/^[A-Za-z0-9]{7}Hotel_receipt_May_\.PDF$/);
    expect(post.max_bytes).toBe(maxUploadBytes);
    expect(Object.keys(post.fields).sort()).toEqual(['key', 'policy', 'signature']);
    expect(post.fields.key).toBe(fileKey(org.organizationId, post.file_name));
    expect(await fileRow(post.file_name)).toMatchObject({
      uploaded_by: org.staff.id,
      original_name: 'Hotel receipt (May).PDF',
      uploaded_at: null,
    });
    const again = await presignPost(t.app, org.staff, 'Hotel receipt (May).PDF');
    expect(again.file_name).not.toBe(post.file_name);
  });

  it.each([
    ['a disallowed extension', 'tool.exe'],
    ['no extension', 'README'],
    ['an empty name', ''],
  ])('refuses %s with 400 and records nothing', async (_case, name) => {
    const before = await t.db.$count(files);
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/v1/files/presigned-post-url?file_name=${encodeURIComponent(name)}`,
      headers: auth(org.staff),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatch(/file_name/);
    expect(await t.db.$count(files)).toBe(before);
  });

  it('refuses a caller without a token', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/v1/files/presigned-post-url?file_name=a.pdf',
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('POST files/upload (the local store)', () => {
  it('stores the file under its key and records its size', async () => {
    const post = await presignPost(t.app, org.staff, 'quote.pdf');
    const response = await postFile(t.app, post, '%PDF-1.4 quote');
    expect(response.statusCode, response.body).toBe(204);
    expect(await fs.readFile(storedPath(org.organizationId, post.file_name), 'utf8')).toBe(
      '%PDF-1.4 quote',
    );
    expect(await fileRow(post.file_name)).toMatchObject({ size: 14 });
    expect((await fileRow(post.file_name))?.uploaded_at).toBeInstanceOf(Date);
  });

  it('never replaces a stored file: the same policy twice is a 409', async () => {
    const post = await presignPost(t.app, org.staff, 'receipt.pdf');
    expect((await postFile(t.app, post, '%PDF-1.4 first')).statusCode).toBe(204);
    const second = await postFile(t.app, post, '%PDF-1.4 second');
    expect(second.statusCode).toBe(409);
    expect(await fs.readFile(storedPath(org.organizationId, post.file_name), 'utf8')).toBe(
      '%PDF-1.4 first',
    );
  });

  it('refuses a .pdf whose bytes are a ZIP archive with 400, storing nothing; a real PDF is kept', async () => {
    const post = await presignPost(t.app, org.staff, 'invoice.pdf');
    const zip = Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(40, 7)]);
    const refused = await postFile(t.app, post, zip, 'invoice.pdf');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe("The file's contents do not match its .pdf extension.");
    await expect(fs.stat(storedPath(org.organizationId, post.file_name))).rejects.toThrow();
    expect(await fileRow(post.file_name)).toMatchObject({ uploaded_at: null, size: null });
    const incoming = await fs.readdir(path.join(t.context.config.dataDir, 'files', '.incoming'));
    expect(incoming).toEqual([]);

    const accepted = await postFile(t.app, post, '%PDF-1.7\n%âãÏÓ\n1 0 obj', 'invoice.pdf');
    expect(accepted.statusCode, accepted.body).toBe(204);
    expect((await fileRow(post.file_name))?.uploaded_at).toBeInstanceOf(Date);
  });

  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
  const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46]);
  const ole = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]);
  const zip = Buffer.from('PK\x03\x04\x14\x00\x06\x00', 'latin1');
  const emptyZip = Buffer.concat([Buffer.from('PK\x05\x06', 'latin1'), Buffer.alloc(18)]);
  it.each([
    ['stamp.png', png, 204],
    ['stamp.png', jpeg, 400],
    ['photo.JPG', jpeg, 204],
    ['photo.jpeg', png, 400],
    ['animation.gif', Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'), 204],
    ['animation.gif', Buffer.from('<svg onload=alert(1)>', 'latin1'), 400],
    ['picture.webp', Buffer.from('RIFF\x24\x00\x00\x00WEBPVP8 ', 'latin1'), 204],
    ['picture.webp', Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt ', 'latin1'), 400],
    ['receipts.zip', emptyZip, 204],
    ['receipts.zip', ole, 400],
    ['budget.docx', zip, 204],
    ['budget.xlsx', zip, 204],
    ['budget.xlsx', ole, 400],
    ['old.doc', ole, 204],
    ['old.xls', ole, 204],
    ['old.doc', zip, 400],
    ['users.csv', Buffer.from('full name,phone\nAsha,0712\n'), 204],
    ['users.csv', Buffer.from('MZ\x90\x00\x03\x00', 'latin1'), 400],
    ['page.pdf', Buffer.from('<html><script>alert(1)</script>'), 400],
  ])('%s with the bytes %j answers %i', async (fileName, content, status) => {
    const post = await presignPost(t.app, org.staff, fileName);
    const response = await postFile(t.app, post, content, fileName);
    expect(response.statusCode, response.body).toBe(status);
    const isStored = await fs
      .stat(storedPath(org.organizationId, post.file_name))
      .then(() => true)
      .catch(() => false);
    expect(isStored).toBe(status === 204);
  });

  it('refuses forged, altered and expired policies with 403, storing nothing', async () => {
    const post = await presignPost(t.app, org.staff, 'forged.pdf');
    const otherKey = fileKey(elsewhere.organizationId, post.file_name);
    const signer = createLocalSigner(t.context.jwtKey);
    const expired = signer.policy({ key: post.fields.key ?? '', max_bytes: 10, expires: 1 });
    const cases: [string, Record<string, string>][] = [
      ['signature', { ...post.fields, signature: 'x'.repeat(43) }],
      ['key', { ...post.fields, key: otherKey }],
      [
        'policy',
        {
          ...post.fields,
          policy: signer.policy({ key: otherKey, max_bytes: 1e9, expires: 2e9 }).policy,
        },
      ],
      ['expired', { ...post.fields, ...expired }],
      ['missing', { key: post.fields.key ?? '' }],
    ];
    for (const [what, fields] of cases) {
      const response = await postFile(t.app, { url: post.url, fields }, 'data');
      expect(response.statusCode, what).toBe(403);
      expect(response.json().error).toMatch(/policy|key/);
    }
    await expect(fs.stat(storedPath(org.organizationId, post.file_name))).rejects.toThrow();
    await expect(fs.stat(storedPath(elsewhere.organizationId, post.file_name))).rejects.toThrow();
  });

  it('refuses an empty file, a file over 20 MB, no file and a body that is not multipart', async () => {
    const empty = await presignPost(t.app, org.staff, 'empty.pdf');
    expect((await postFile(t.app, empty, '')).statusCode).toBe(400);

    const large = await presignPost(t.app, org.staff, 'large.pdf');
    const tooLarge = await postFile(t.app, large, Buffer.alloc(maxUploadBytes + 1, 1));
    expect(tooLarge.statusCode).toBe(400);
    expect(tooLarge.json().error).toBe('The file is larger than 20 MB.');
    await expect(fs.stat(storedPath(org.organizationId, large.file_name))).rejects.toThrow();

    const none = await t.app.inject({
      method: 'POST',
      url: '/api/v1/files/upload',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x--\r\n',
    });
    expect(none.statusCode).toBe(400);
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/v1/files/upload',
      payload: { key: 'x' },
    });
    expect(json.statusCode).toBe(400);
    // Nothing half-written is left behind.
    const incoming = await fs
      .readdir(path.join(t.context.config.dataDir, 'files', '.incoming'))
      .catch(() => []);
    expect(incoming).toEqual([]);
  });
});

describe('GET files/presigned-get-url and the link', () => {
  it('gives the uploader a five-minute link that serves the file inline under its display name', async () => {
    const name = await uploaded(t.app, org.staff, 'Mama Lishe receipt.pdf', '%PDF-1.4 meals');
    const response = await linkFor(org.staff, name);
    expect(response.statusCode).toBe(200);
    const link = new URL(response.json().url, 'http://localhost');
    expect(link.pathname).toBe(localObjectPath);
    const expires = Number(link.searchParams.get('expires'));
    expect(expires - Date.now() / 1000).toBeGreaterThan(290);
    expect(expires - Date.now() / 1000).toBeLessThanOrEqual(300);
    const file = await follow(response.json().url);
    expect(file.statusCode).toBe(200);
    expect(file.body).toBe('%PDF-1.4 meals');
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toBe(
      `inline; filename="Mama_Lishe_receipt.pdf"; filename*=UTF-8''Mama_Lishe_receipt.pdf`,
    );
    expect(file.headers['x-content-type-options']).toBe('nosniff');
  });

  it('shows an attached file to the request owner and admins only, in its organisation', async () => {
    const name = await uploaded(t.app, org.staff, 'invoice.pdf');
    // Before it is attached, only its uploader may read it.
    expect((await linkFor(org.finance, name)).statusCode).toBe(404);
    const request = await submitted(
      t.app,
      org.staff,
      requestBody(org.budget.code, { file_paths: [name] }),
    );
    expect(request.file_paths).toEqual([name]);
    expect((await linkFor(org.staff, name)).statusCode).toBe(200);
    expect((await linkFor(org.finance, name)).statusCode).toBe(200);
    expect((await linkFor(org.director, name)).statusCode).toBe(200);
    for (const outsider of [org.otherStaff, elsewhere.staff, elsewhere.finance]) {
      const response = await linkFor(outsider, name);
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toBe('File not found!');
    }
  });

  it.each([
    ['scan.png', 'image/png', 'inline'],
    ['photo.jpg', 'image/jpeg', 'inline'],
    ['quote.pdf', 'application/pdf', 'inline'],
    [
      'budget.docx',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'attachment',
    ],
    [
      'sheet.xlsx',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'attachment',
    ],
    ['old.doc', 'application/msword', 'attachment'],
    ['list.csv', 'text/csv', 'attachment'],
    ['bundle.zip', 'application/zip', 'attachment'],
  ])('serves %s as %s, %s, sandboxed and never sniffed', async (fileName, type, disposition) => {
    const name = await uploaded(t.app, org.staff, fileName);
    const file = await follow((await linkFor(org.staff, name)).json().url);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload).toEqual(genuineFile(fileName));
    expect(file.headers['content-type']).toBe(type);
    expect(file.headers['content-disposition']).toBe(
      `${disposition}; filename="${fileName}"; filename*=UTF-8''${fileName}`,
    );
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    const policy = String(file.headers['content-security-policy']).split(/;\s*/);
    expect(policy).toEqual(
      expect.arrayContaining(['sandbox', "default-src 'none'", "frame-ancestors 'self'"]),
    );
    expect(policy.some((directive) => directive.startsWith('script-src'))).toBe(false);
    // The preview dialog frames a PDF from the app's own pages; no other site may.
    expect(file.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('answers 404 for an unknown name and 400 for text that is no stored name', async () => {
    expect((await linkFor(org.staff, 'Zz9Zz9Znothing.pdf')).statusCode).toBe(404);
    expect((await linkFor(org.staff, '../etc/passwd')).statusCode).toBe(400);
  });

  it('refuses a link with a forged signature, another key, or past its time, with 403', async () => {
    const name = await uploaded(t.app, org.staff, 'statement.pdf');
    const url = new URL((await linkFor(org.staff, name)).json().url, 'http://localhost');
    const signer = createLocalSigner(t.context.jwtKey);
    const key = fileKey(org.organizationId, name);
    const variants = [
      { signature: 'x'.repeat(43) },
      { key: fileKey(elsewhere.organizationId, name) },
      { expires: '1', signature: signer.link(key, 1) },
    ];
    for (const change of variants) {
      const altered = new URL(url);
      for (const [field, value] of Object.entries(change)) altered.searchParams.set(field, value);
      const response = await follow(`${altered.pathname}${altered.search}`);
      expect(response.statusCode, JSON.stringify(change)).toBe(403);
    }
  });
});

describe('files a request holds', () => {
  const requestCount = () => t.db.$count(requests);

  it.each([
    ["another user's upload", async () => uploaded(t.app, org.otherStaff, 'theirs.pdf')],
    [
      'a file presigned but never uploaded',
      async () => (await presignPost(t.app, org.staff, 'never.pdf')).file_name,
    ],
    ['an unknown name', async () => 'Zz9Zz9Zunknown.pdf'],
    ["another organisation's upload", async () => uploaded(t.app, elsewhere.staff, 'far.pdf')],
  ])('refuses %s with 400 and creates nothing', async (_case, fileName) => {
    const name = await fileName();
    const before = await requestCount();
    const response = await submit(
      t.app,
      org.staff,
      requestBody(org.budget.code, { file_paths: [name] }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toEqual([
      { path: 'file_paths', message: `Unknown file: ${name}` },
    ]);
    expect(await requestCount()).toBe(before);
  });

  it('refuses a stored file whose bytes do not match its extension, naming it, and creates nothing', async () => {
    const name = await uploaded(t.app, org.staff, 'swapped.pdf');
    // As with S3, where the server never sees the upload, or a file stored before the check.
    await fs.writeFile(storedPath(org.organizationId, name), 'MZ\x90\x00 an executable', 'latin1');
    const before = await requestCount();
    const response = await submit(
      t.app,
      org.staff,
      requestBody(org.budget.code, { file_paths: [name] }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'The contents of swapped.pdf do not match its .pdf extension.',
      details: [{ path: 'file_paths', message: `Contents do not match the extension: ${name}` }],
    });
    expect(await requestCount()).toBe(before);
  });

  it('keeps one copy of a name given twice', async () => {
    const name = await uploaded(t.app, org.staff, 'twice.pdf');
    const request = await submitted(
      t.app,
      org.staff,
      requestBody(org.budget.code, { file_paths: [name, name] }),
    );
    expect(request.file_paths).toEqual([name]);
  });

  it('lets a resubmission keep the returned version’s files and add the owner’s new ones', async () => {
    const first = await uploaded(t.app, org.staff, 'first.pdf');
    const request = await submitted(
      t.app,
      org.staff,
      requestBody(org.budget.code, { file_paths: [first] }),
    );
    const answer = await review(t.app, org.finance, {
      id: request.reviews[0]?.id ?? '',
      request_id: request.id,
      status: 'request_edit',
    });
    expect(answer.statusCode).toBe(200);
    const added = await uploaded(t.app, org.staff, 'added.png');
    const someoneElses = await uploaded(t.app, org.otherStaff, 'not-mine.pdf');
    const resubmit = (filePaths: string[]) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/requests/request/request-edit',
        headers: auth(org.staff),
        payload: requestBody(org.budget.code, {
          parent_request: request.id,
          file_paths: filePaths,
        }),
      });
    const refused = await resubmit([first, someoneElses]);
    expect(refused.statusCode).toBe(400);
    const accepted = await resubmit([first, added]);
    expect(accepted.statusCode, accepted.body).toBe(201);
    expect(accepted.json().file_paths).toEqual([first, added]);
    expect((await linkFor(org.finance, added)).statusCode).toBe(200);
  });
});
