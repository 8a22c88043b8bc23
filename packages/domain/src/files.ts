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
