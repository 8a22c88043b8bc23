import { readZipDirectory, zipArchiveRefusal } from '@imprest/domain/files.ts';
import mammoth from 'mammoth';
import { answerWith, PreviewRefusal } from './run-worker.ts';

/** The HTML of a .docx (mammoth), made in a worker so a hostile document cannot freeze the page. */
export type WordResult = { html: string };

answerWith<WordResult, { bytes: Uint8Array }>(async ({ bytes }) => {
  if (bytes.length === 0) throw new PreviewRefusal('empty', 'The file is empty.');
  // A .docx is a ZIP archive: its directory is checked before anything is expanded (zip bombs).
  const refusal = zipArchiveRefusal(readZipDirectory(bytes).entries);
  if (refusal) throw new PreviewRefusal('refused', refusal);
  const result = await mammoth.convertToHtml(
    {
      arrayBuffer: bytes.buffer.slice(
        bytes.byteOffset,
        bytes.byteOffset + bytes.length,
      ) as ArrayBuffer,
    },
    // Linked (external) files are never read; embedded images become data: addresses.
    { externalFileAccess: false },
  );
  return { html: result.value };
});
