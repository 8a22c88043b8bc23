import { describe, expect, it } from 'vitest';
import {
  contentTypeOf,
  fileExtension,
  fileSignatureBytes,
  isShownInline,
  isStoredFileName,
  isUploadAllowed,
  matchesFileSignature,
  previewKind,
  sanitizeFileName,
} from './files.ts';

describe('sanitizeFileName', () => {
  it.each([
    ['Hotel receipt (May).PDF', 'Hotel_receipt_May_.PDF'],
    ['C:\\Users\\asha\\scan.jpg', 'scan.jpg'],
    ['../../etc/passwd.pdf', 'passwd.pdf'],
    ['.hidden.pdf', 'hidden.pdf'],
    ['Café menu.png', 'Cafe_menu.png'],
    ['???', 'file'],
    // Nothing safe before the extension: the extension stays, so the upload is still allowed.
    ['фото.pdf', 'file.pdf'],
    ['收据.JPG', 'file.JPG'],
    ['_.pdf', 'file.pdf'],
  ])('%j → %j', (name, safe) => {
    expect(sanitizeFileName(name)).toBe(safe);
  });

  it('keeps the extension of a very long name', () => {
    const safe = sanitizeFileName(`${'a'.repeat(300)}.xlsx`);
    expect(safe).toHaveLength(120);
    expect(safe.endsWith('.xlsx')).toBe(true);
  });
});

describe('stored names and extensions', () => {
  it.each([
    ['Ab3dE9xinvoice.pdf', true],
    ['Ab3dE9x', false],
    ['Ab3dE9x.pdf', false],
    ['Ab3dE9x../x.pdf', false],
    ['Ab3/E9xinvoice.pdf', false],
    ['Ab3dE9xin voice.pdf', false],
  ])('isStoredFileName(%j) is %s', (name, valid) => {
    expect(isStoredFileName(name)).toBe(valid);
  });

  it.each([
    ['a.PDF', 'pdf', true],
    ['a.tar.zip', 'zip', true],
    ['a.exe', 'exe', false],
    ['README', '', false],
    ['.pdf', '', false],
    ['a.', '', false],
    ['scans/.pdf', '', false],
    ['C:\\fakepath\\.pdf', '', false],
    ['scans.v2/receipt', '', false],
    ['C:\\fakepath\\receipt.pdf', 'pdf', true],
  ])('%j has extension %j (allowed: %s)', (name, extension, allowed) => {
    expect(fileExtension(name)).toBe(extension);
    expect(isUploadAllowed(name)).toBe(allowed);
  });

  it.each([
    ['x.png', 'image', 'image/png'],
    ['x.pdf', 'pdf', 'application/pdf'],
    ['x.docx', 'office', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['x.csv', 'office', 'text/csv'],
    ['x.zip', 'zip', 'application/zip'],
    ['x.txt', 'unsupported', 'application/octet-stream'],
  ])('%j previews as %s and is served as %s', (name, kind, type) => {
    expect(previewKind(name)).toBe(kind);
    expect(contentTypeOf(name)).toBe(type);
  });
});

describe('matchesFileSignature', () => {
  const bytes = (...parts: (string | number[])[]) =>
    new Uint8Array(
      parts.flatMap((part) =>
        typeof part === 'string' ? [...part].map((character) => character.charCodeAt(0)) : part,
      ),
    );
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  const ole = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
  const jpeg = [0xff, 0xd8, 0xff, 0xe0];
  const zip = 'PK\x03\x04\x14\x00';
  const emptyZip = 'PK\x05\x06\x00\x00';

  const hex = (value: Uint8Array) =>
    [...value.subarray(0, 12)].map((byte) => byte.toString(16).padStart(2, '0')).join(' ');
  const cases: [string, Uint8Array, boolean][] = [
    ['pdf', bytes('%PDF-1.7\n%'), true],
    ['PDF', bytes('%PDF-1.4'), true],
    ['pdf', bytes('%PDF'), false],
    ['pdf', bytes(zip), false],
    ['pdf', bytes('<html><script>'), false],
    ['png', bytes(png, [0, 0, 0, 13]), true],
    ['png', bytes(png.slice(0, 7)), false],
    ['png', bytes(jpeg), false],
    ['jpg', bytes(jpeg), true],
    ['jpeg', bytes([0xff, 0xd8, 0xff, 0xdb]), true],
    ['jpg', bytes([0xff, 0xd8, 0x00]), false],
    ['gif', bytes('GIF87a'), true],
    ['gif', bytes('GIF89a\x01\x00'), true],
    ['gif', bytes('GIF88a'), false],
    ['webp', bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 '), true],
    ['webp', bytes('RIFF', [0x24, 0, 0, 0], 'WAVEfmt '), false],
    ['zip', bytes(zip), true],
    ['zip', bytes(emptyZip), true],
    ['docx', bytes(zip), true],
    ['xlsx', bytes(zip), true],
    ['xlsx', bytes(ole), false],
    ['zip', bytes('PK\x01\x02'), false],
    ['doc', bytes(ole), true],
    ['xls', bytes(ole), true],
    ['doc', bytes(zip), false],
    ['csv', bytes('name,amount\nAsha,1000\n'), true],
    ['csv', bytes('\xef\xbb\xbfname,amount\n'), true],
    ['csv', bytes('MZ\x90\x00\x03'), false],
    ['csv', bytes(png, [0, 0, 0, 13]), false],
    ['exe', bytes('MZ\x90\x00'), false],
    ['', bytes('%PDF-1.4'), false],
    ['pdf', new Uint8Array(), false],
  ];
  it.each(
    cases.map(
      ([extension, firstBytes, matches]) =>
        [extension, hex(firstBytes), matches, firstBytes] as const,
    ),
  )('.%s starting [%s] matches: %s', (extension, _hex, matches, firstBytes) => {
    expect(matchesFileSignature(extension, firstBytes)).toBe(matches);
  });

  it('reads a NUL only within the first 4 KiB of a CSV', () => {
    const text = new Uint8Array(fileSignatureBytes('csv') + 1).fill(0x61);
    expect(matchesFileSignature('csv', text)).toBe(true);
    text[text.length - 1] = 0;
    expect(matchesFileSignature('csv', text)).toBe(true);
    text[text.length - 2] = 0;
    expect(matchesFileSignature('csv', text)).toBe(false);
  });

  it('needs no more leading bytes than fileSignatureBytes gives it', () => {
    expect(fileSignatureBytes('csv')).toBe(4096);
    for (const extension of ['pdf', 'png', 'jpg', 'gif', 'webp', 'zip', 'doc', 'xlsx']) {
      expect(fileSignatureBytes(extension)).toBeGreaterThanOrEqual(12);
      expect(fileSignatureBytes(extension)).toBeLessThanOrEqual(16);
    }
  });
});

describe('isShownInline', () => {
  it.each([
    ['a.png', true],
    ['a.JPG', true],
    ['a.webp', true],
    ['a.gif', true],
    ['a.pdf', true],
    ['a.docx', false],
    ['a.xlsx', false],
    ['a.csv', false],
    ['a.doc', false],
    ['a.zip', false],
    ['a.html', false],
  ])('%s → %s', (name, inline) => {
    expect(isShownInline(name)).toBe(inline);
  });
});
