import fs from 'node:fs/promises';
import path from 'node:path';
import type { Executor } from '../db/client.ts';
import { files } from '../db/schema.ts';
import { fileKey, localPath } from '../features/files/store.ts';

/**
 * A one-page PDF showing some lines of text (Helvetica), small enough to write by hand: the demo's
 * quotations and receipts, so the request view has real attachments to preview.
 */
export function textPdf(lines: string[]): Buffer {
  const escape = (text: string) => text.replace(/[\\()]/g, (character) => `\\${character}`);
  const content = [
    'BT /F1 14 Tf 56 780 Td 18 TL',
    ...lines.map((line) => `(${escape(line)}) Tj T*`),
    'ET',
  ].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(content)} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (const [index, body] of objects.entries()) {
    offsets.push(Buffer.byteLength(pdf));
    pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
  }
  const xref = Buffer.byteLength(pdf);
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

/**
 * Stores a demo file in the local store (DATA_DIR/files) and records it as uploaded by its owner;
 * answers the stored name. The demo runs on the local store; with S3 it attaches nothing.
 */
export async function storeDemoFile(
  tx: Executor,
  options: {
    dataDir: string;
    organizationId: string;
    ownerId: string;
    name: string;
    content: Buffer;
  },
): Promise<string> {
  const target = localPath(
    path.join(options.dataDir, 'files'),
    fileKey(options.organizationId, options.name),
  );
  await fs.mkdir(path.dirname(target), { recursive: true });
  await fs.writeFile(target, options.content);
  await tx.insert(files).values({
    organization_id: options.organizationId,
    name: options.name,
    original_name: options.name.slice(7),
    uploaded_by: options.ownerId,
    uploaded_at: new Date(),
    size: options.content.length,
  });
  return options.name;
}
