import { describe, expect, it } from 'vitest';
import {
  contentTypeOf,
  fileExtension,
  isStoredFileName,
  isUploadAllowed,
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
