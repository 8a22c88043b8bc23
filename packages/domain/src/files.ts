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

/**
 * The extension of a file name, lower-cased ('' when it has none), read from its last path segment
 * as the stored name will be: 'scans/.pdf' has none, as '.pdf' has none.
 */
export function fileExtension(fileName: string): string {
  const base = fileName.slice(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 && dot < base.length - 1 ? base.slice(dot + 1).toLowerCase() : '';
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
 * extension kept. 'Hotel receipt (May).PDF' → 'Hotel_receipt_May_.PDF'; 'фото.pdf' → 'file.pdf'.
 */
export function sanitizeFileName(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const replaced = base.normalize('NFKD').replace(/[^A-Za-z0-9._-]+/g, '_');
  let safe = replaced.replace(/^[._]+/, '');
  // A name with nothing safe before its extension ('фото.pdf' → '_.pdf') keeps the extension.
  if (fileExtension(replaced) && !fileExtension(safe))
    safe = `file.${replaced.slice(replaced.lastIndexOf('.') + 1)}`;
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

/**
 * Which previewer of the dialog shows a file (issue 12): every receipt is shown in the page, none
 * goes to an outside viewer. The binary Office formats of before 2007 (.doc, .xls, .ppt) have no
 * browser reader we trust (docs/decisions/0015) and are offered for download with a reason.
 */
export type Previewer = 'image' | 'pdf' | 'word' | 'sheet' | 'zip' | 'download' | 'unsupported';

export function previewerOf(fileName: string): Previewer {
  const extension = fileExtension(fileName);
  if (extension === 'docx') return 'word';
  if (extension === 'xlsx' || extension === 'csv') return 'sheet';
  if (['doc', 'xls', 'ppt', 'pptx'].includes(extension)) return 'download';
  const kind = previewKind(fileName);
  return kind === 'office' ? 'download' : kind;
}

/** A spreadsheet preview shows at most this many rows and columns of a sheet, and says so. */
export const previewRowLimit = 1000;
export const previewColumnLimit = 100;
/** A cell's text is cut past this many characters. */
export const previewCellCharacters = 500;

/** No archive entry is expanded past 50 MB, nor an archive (docx, xlsx) past 100 MB in all. */
export const zipEntryLimitBytes = 50 * 1024 * 1024;
export const zipTotalLimitBytes = 100 * 1024 * 1024;
/**
 * Ordinary files deflate 2–20 times; a zip bomb, thousands. Past 100:1 an entry of more than
 * 1 MB is refused (small entries are harmless whatever their ratio: a page of blanks).
 */
export const zipRatioLimit = 100;
const zipRatioFloorBytes = 1024 * 1024;
/** An archive listing shows at most this many entries. */
export const zipListLimit = 2000;

/** One entry of a ZIP archive's central directory. */
export type ZipEntry = {
  index: number;
  name: string;
  /** Bytes stored in the archive, and bytes once expanded, as the directory says. */
  compressedSize: number;
  size: number;
  /** 0 stored, 8 deflated; anything else cannot be expanded here. */
  method: number;
  isDirectory: boolean;
  isEncrypted: boolean;
  localHeaderOffset: number;
};

/** Why an entry is not expanded (issue 12: a zip bomb is listed, never unpacked), or null. */
export function zipEntryRefusal(entry: ZipEntry): string | null {
  if (entry.isDirectory) return 'This is a folder.';
  if (entry.isEncrypted)
    return 'This file is protected by a password. Download the archive to open it.';
  if (entry.method !== 0 && entry.method !== 8)
    return 'This file is compressed in a way the browser cannot expand. Download the archive to open it.';
  if (entry.size > zipEntryLimitBytes)
    return `This file expands to more than ${zipEntryLimitBytes / 1024 / 1024} MB and is not opened here. Download the archive to open it.`;
  if (entry.size > zipRatioFloorBytes && entry.size > entry.compressedSize * zipRatioLimit)
    return `This file expands more than ${zipRatioLimit} times its packed size, as a zip bomb does, and is not opened here.`;
  return null;
}

/** Why a whole archive (a docx or xlsx) is not expanded, or null: any refused entry, or its total. */
export function zipArchiveRefusal(entries: readonly ZipEntry[]): string | null {
  let total = 0;
  for (const entry of entries) {
    if (entry.isDirectory) continue;
    const refusal = zipEntryRefusal(entry);
    if (refusal) return `${entry.name}: ${refusal}`;
    total += entry.size;
  }
  if (total > zipTotalLimitBytes)
    return `The file expands to more than ${zipTotalLimitBytes / 1024 / 1024} MB and is not opened here.`;
  return null;
}

/** Thrown when bytes are not a ZIP archive that can be read. */
export class ZipFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ZipFormatError';
  }
}

const endOfDirectory = 0x06054b50;
const zip64EndLocator = 0x07064b50;
const zip64End = 0x06064b50;
const directoryHeader = 0x02014b50;
const localHeader = 0x04034b50;

/** Code page 437, the names of ZIP entries without the UTF-8 flag, from 0x80 on. */
const cp437High =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';

function decodeName(bytes: Uint8Array, isUtf8: boolean): string {
  if (isUtf8) return new TextDecoder('utf-8').decode(bytes);
  let name = '';
  for (const byte of bytes)
    name += byte < 0x80 ? String.fromCharCode(byte) : cp437High[byte - 0x80];
  return name;
}

/**
 * The entries of a ZIP archive, read from its central directory alone (APPNOTE 4.3.16, ZIP64
 * sizes too): nothing is expanded, so a zip bomb lists as cheaply as a receipt. Throws
 * ZipFormatError when the bytes are not an archive. At most `limit` entries are read.
 */
export function readZipDirectory(
  bytes: Uint8Array,
  limit = Number.POSITIVE_INFINITY,
): { entries: ZipEntry[]; total: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end record is within the last 64 KiB + 22 bytes (its comment is at most 65,535 bytes).
  let end = -1;
  for (let at = bytes.length - 22; at >= 0 && at >= bytes.length - 22 - 0xffff; at -= 1) {
    if (view.getUint32(at, true) === endOfDirectory) {
      end = at;
      break;
    }
  }
  if (end < 0) throw new ZipFormatError('No end of central directory record');
  let total = view.getUint16(end + 10, true);
  let offset = view.getUint32(end + 16, true);
  if (end >= 20 && view.getUint32(end - 20, true) === zip64EndLocator) {
    const record = Number(view.getBigUint64(end - 12, true));
    if (record + 56 > bytes.length || view.getUint32(record, true) !== zip64End)
      throw new ZipFormatError('Broken ZIP64 record');
    total = Number(view.getBigUint64(record + 32, true));
    offset = Number(view.getBigUint64(record + 48, true));
  }
  const entries: ZipEntry[] = [];
  for (let index = 0; index < total && index < limit; index += 1) {
    if (offset + 46 > bytes.length || view.getUint32(offset, true) !== directoryHeader)
      throw new ZipFormatError('Broken central directory');
    const flags = view.getUint16(offset + 8, true);
    const method = view.getUint16(offset + 10, true);
    let compressedSize = view.getUint32(offset + 20, true);
    let size = view.getUint32(offset + 24, true);
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const commentLength = view.getUint16(offset + 32, true);
    let localHeaderOffset = view.getUint32(offset + 42, true);
    const nameStart = offset + 46;
    if (nameStart + nameLength + extraLength > bytes.length)
      throw new ZipFormatError('Broken central directory');
    const name = decodeName(
      bytes.subarray(nameStart, nameStart + nameLength),
      (flags & 0x800) !== 0,
    );
    // ZIP64: the sizes and offset that overflow 32 bits are in the extra field 0x0001, in order.
    let extra = nameStart + nameLength;
    const extraEnd = extra + extraLength;
    while (extra + 4 <= extraEnd) {
      const id = view.getUint16(extra, true);
      const length = view.getUint16(extra + 2, true);
      if (id === 0x0001) {
        let field = extra + 4;
        const read = () => {
          const value =
            field + 8 <= extra + 4 + length ? Number(view.getBigUint64(field, true)) : 0;
          field += 8;
          return value;
        };
        if (size === 0xffffffff) size = read();
        if (compressedSize === 0xffffffff) compressedSize = read();
        if (localHeaderOffset === 0xffffffff) localHeaderOffset = read();
      }
      extra += 4 + length;
    }
    entries.push({
      index,
      name,
      compressedSize,
      size,
      method,
      isDirectory: name.endsWith('/'),
      isEncrypted: (flags & 0x1) !== 0,
      localHeaderOffset,
    });
    offset = extraEnd + commentLength;
  }
  return { entries, total };
}

/** Where an entry's stored bytes are, from its local header; throws ZipFormatError when broken. */
export function zipEntryData(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.localHeaderOffset;
  if (at + 30 > bytes.length || view.getUint32(at, true) !== localHeader)
    throw new ZipFormatError('Broken local header');
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  if (start + entry.compressedSize > bytes.length) throw new ZipFormatError('Truncated entry');
  return bytes.subarray(start, start + entry.compressedSize);
}
