import {
  readZipDirectory,
  zipEntryData,
  zipEntryRefusal,
  zipListLimit,
} from '@imprest/domain/files.ts';
import { inflateSync } from 'fflate';
import { answerWith, PreviewRefusal } from './run-worker.ts';

/** An entry as the list shows it; `refusal` says why it is not expanded (a zip bomb). */
export type ZipListing = {
  entries: {
    index: number;
    name: string;
    size: number;
    compressedSize: number;
    isDirectory: boolean;
    refusal: string | null;
  }[];
  total: number;
};
export type ZipExtract = { bytes: Uint8Array };

export type ZipMessage =
  { action: 'list'; bytes: Uint8Array } | { action: 'extract'; bytes: Uint8Array; index: number };

/**
 * A ZIP archive listed from its central directory alone, and one entry expanded on demand within
 * the limits of zipEntryRefusal, in a worker: a zip bomb is listed, never unpacked (issue 12).
 */
answerWith<ZipListing | ZipExtract, ZipMessage>((message) => {
  const { bytes } = message;
  if (bytes.length === 0) throw new PreviewRefusal('empty', 'The file is empty.');
  if (message.action === 'list') {
    const { entries, total } = readZipDirectory(bytes, zipListLimit);
    return {
      total,
      entries: entries.map((entry) => ({
        index: entry.index,
        name: entry.name,
        size: entry.size,
        compressedSize: entry.compressedSize,
        isDirectory: entry.isDirectory,
        refusal: entry.isDirectory ? null : zipEntryRefusal(entry),
      })),
    };
  }
  const entry = readZipDirectory(bytes, message.index + 1).entries[message.index];
  if (!entry) throw new PreviewRefusal('refused', 'There is no such file in the archive.');
  const refusal = zipEntryRefusal(entry);
  if (refusal) throw new PreviewRefusal('refused', refusal);
  const data = zipEntryData(bytes, entry);
  if (entry.method === 0) return { bytes: data.slice() };
  // The output is the size the directory declares, no more: an entry that lies about its size is
  // cut there, and the worker's timeout ends one that inflates for ever.
  return { bytes: inflateSync(data, { out: new Uint8Array(entry.size) }) };
});
