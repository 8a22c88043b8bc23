import { beforeAll, describe, expect, it } from 'vitest';
import { fileExtension } from '@imprest/domain/files.ts';
import { genuineFile, postFile, presignPost } from '../../../test/factories/files.ts';
import {
  appWithStaffedOrganization,
  type StaffedOrganization,
} from '../../../test/factories/organizations.ts';
import { auth, type TestApp } from '../../../test/helpers.ts';

// A receipt whose name is not in Latin letters (a phone's "фото.pdf", "收据.pdf") keeps its
// extension in the stored name, so its upload is accepted; it used to be stored as "pdf" and its
// upload refused with a 400 about a ". extension".

let t: TestApp;
let org: StaffedOrganization;

beforeAll(async () => {
  ({ t, org } = await appWithStaffedOrganization({ name: 'Names Org' }));
});

describe('a name whose last path segment is only an extension', () => {
  it.each(['scans/.pdf', 'C:\\fakepath\\.pdf'])(
    'is refused for %s with 400, as ".pdf" is',
    async (name) => {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/v1/files/presigned-post-url?file_name=${encodeURIComponent(name)}`,
        headers: auth(org.staff),
      });
      // It was given a stored name without an extension ("…pdf"), whose upload was then refused.
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().error).toContain('File extension not supported');
    },
  );
});

describe('a receipt named in a non-Latin script', () => {
  it.each(['фото.pdf', '收据.pdf', '_.pdf'])(
    'keeps the extension of %s in the stored name and accepts the genuine file',
    async (name) => {
      const post = await presignPost(t.app, org.staff, name);
      expect(fileExtension(post.file_name)).toBe('pdf');
      const response = await postFile(t.app, post, genuineFile('x.pdf', 'receipt'), name);
      expect(response.statusCode, response.body).toBe(204);
    },
  );
});
