import { fileNamePrefixLength, maxFileBytes } from './constants.ts';

/** Extensions an upload may have (decisions §6). */
export const uploadExtensions = [
  'pdf',
  'jpg',
  'jpeg',
  'png',
  'gif',
  'webp',
  'zip',
  'doc',
  'docx',
  'xls',
  'xlsx',
  'csv',
] as const;
export type UploadExtension = (typeof uploadExtensions)[number];

/** How long a presigned POST may be used, and a presigned GET link lasts (decisions §6). */
export const uploadPolicySeconds = 15 * 60;
export const downloadLinkSeconds = 5 * 60;
export const maxUploadBytes = maxFileBytes;

/** The extension of a file name, lower-cased ('' when it has none). */
export function fileExtension(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 && dot < fileName.length - 1 ? fileName.slice(dot + 1).toLowerCase() : '';
}

export function isUploadAllowed(fileName: string): boolean {
  return (uploadExtensions as readonly string[]).includes(fileExtension(fileName));
}

/** A magic number: bytes from the start of a file, null where any byte will do. */
type Signature = readonly (number | null)[];

/** Leading bytes of each binary kind (ASVS 5.2.2: contents must match the extension). */
const signatures: Record<Exclude<UploadExtension, 'csv'>, readonly Signature[]> = {
  // '%PDF-'
  pdf: [[0x25, 0x50, 0x44, 0x46, 0x2d]],
  png: [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  jpg: [[0xff, 0xd8, 0xff]],
  jpeg: [[0xff, 0xd8, 0xff]],
  // 'GIF87a', 'GIF89a'
  gif: [
    [0x47, 0x49, 0x46, 0x38, 0x37, 0x61],
    [0x47, 0x49, 0x46, 0x38, 0x39, 0x61],
  ],
  // 'RIFF', any four bytes (the size), 'WEBP'
  webp: [[0x52, 0x49, 0x46, 0x46, null, null, null, null, 0x57, 0x45, 0x42, 0x50]],
  // 'PK\x03\x04' (a local file header) or 'PK\x05\x06' (an empty archive); docx and xlsx are ZIPs.
  zip: zipSignatures(),
  docx: zipSignatures(),
  xlsx: zipSignatures(),
  // The OLE compound file header of the old Office formats.
  doc: [[0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]],
  xls: [[0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]],
};

function zipSignatures(): Signature[] {
  return [
    [0x50, 0x4b, 0x03, 0x04],
    [0x50, 0x4b, 0x05, 0x06],
  ];
}

/** How much of a CSV is read to decide it is text. */
const textSampleBytes = 4096;

/**
 * How many leading bytes `matchesFileSignature` needs for a file of this extension: 16 covers
 * every binary signature; a CSV has none, so its first 4 KiB are read to check it is text.
 */
export function fileSignatureBytes(extension: string): number {
  return extension.toLowerCase() === 'csv' ? textSampleBytes : 16;
}

/**
 * Whether a file's first bytes are what its extension promises (decisions §6; ASVS 5.2.2), so a
 * script or an executable cannot pass as a receipt: the magic number of each binary kind, and for a
 * CSV no NUL byte in its first 4 KiB (text, not a binary under a text name). An extension that may
 * not be uploaded never matches.
 */
export function matchesFileSignature(extension: string, firstBytes: Uint8Array): boolean {
  const kind = extension.toLowerCase();
  if (kind === 'csv') return !firstBytes.subarray(0, textSampleBytes).includes(0);
  const candidates = (signatures as Partial<Record<string, readonly Signature[]>>)[kind];
  if (!candidates) return false;
  return candidates.some(
    (signature) =>
      firstBytes.length >= signature.length &&
      signature.every((byte, index) => byte === null || firstBytes[index] === byte),
  );
}

const longestName = 120;

/**
 * A file name made safe to store and to put in a URL: the last path segment, letters, digits, '.',
 * '-' and '_' kept, every other run of characters one '_', at most 120 characters with the
 * extension kept. 'Hotel receipt (May).PDF' → 'Hotel_receipt_May_.PDF'.
 */
export function sanitizeFileName(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  let safe = base
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '');
  if (safe.length > longestName) {
    const extension = fileExtension(safe);
    const keep = longestName - (extension ? extension.length + 1 : 0);
    safe = extension ? `${safe.slice(0, keep)}.${extension}` : safe.slice(0, longestName);
  }
  return safe || 'file';
}

const storedNamePattern = new RegExp(
  `^[A-Za-z0-9]{${fileNamePrefixLength}}[A-Za-z0-9_-][A-Za-z0-9._-]*$`,
);

/** Whether a text is a stored file name: 7 random alphanumerics and a sanitised name. */
export function isStoredFileName(value: string): boolean {
  return value.length <= fileNamePrefixLength + longestName && storedNamePattern.test(value);
}

/** How the preview dialog shows a file (spec §9 Preview). */
export type PreviewKind = 'image' | 'pdf' | 'office' | 'zip' | 'unsupported';

export function previewKind(fileName: string): PreviewKind {
  const extension = fileExtension(fileName);
  if (['png', 'jpg', 'jpeg', 'gif', 'webp', 'bmp'].includes(extension)) return 'image';
  if (extension === 'pdf') return 'pdf';
  if (['doc', 'docx', 'xls', 'xlsx', 'csv', 'ppt', 'pptx'].includes(extension)) return 'office';
  if (extension === 'zip') return 'zip';
  return 'unsupported';
}

/**
 * Whether the browser is to show a stored file itself (the preview dialog's images and PDFs);
 * every other kind is served as an attachment, so it is saved, never rendered, by the browser.
 */
export function isShownInline(fileName: string): boolean {
  const kind = previewKind(fileName);
  return kind === 'image' || kind === 'pdf';
}

/** The content type a stored file is served with. */
export function contentTypeOf(fileName: string): string {
  const types: Record<string, string> = {
    pdf: 'application/pdf',
    jpg: 'image/jpeg',
    jpeg: 'image/jpeg',
    png: 'image/png',
    gif: 'image/gif',
    webp: 'image/webp',
    zip: 'application/zip',
    doc: 'application/msword',
    docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    xls: 'application/vnd.ms-excel',
    xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    csv: 'text/csv',
  };
  return types[fileExtension(fileName)] ?? 'application/octet-stream';
}
