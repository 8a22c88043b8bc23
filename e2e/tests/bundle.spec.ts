import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';

// Issue 12: the file previewers' libraries are fetched when a file of their kind is first opened,
// never with the first page. Read from the manifest of the build the other tests run against
// (scripts/start.mjs builds apps/web/dist before the server starts).

type Chunk = {
  file: string;
  name?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  assets?: string[];
};

const dist = path.resolve(import.meta.dirname, '../../apps/web/dist');

/** A string each library's code carries, minified or not. */
const libraries = [
  { name: 'pdfjs-dist', marker: 'GlobalWorkerOptions' },
  { name: 'dompurify', marker: 'DOMPurify' },
  { name: 'mammoth', marker: 'wordprocessingml/2006/main' },
  { name: 'read-excel-file', marker: 'sharedStrings' },
  { name: 'papaparse', marker: 'UndetectableDelimiter' },
  { name: 'fflate', marker: 'invalid zip data' },
];

test('the previewers and their libraries are not in the first download', () => {
  const manifest = JSON.parse(
    fs.readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'),
  ) as Record<string, Chunk>;
  const [entryKey] = Object.entries(manifest).find(([, chunk]) => chunk.isEntry) ?? [];
  expect(entryKey).toBe('index.html');

  // The entry and every chunk it imports statically: what the first page loads.
  const initial = new Set<string>();
  const walk = (key: string) => {
    if (initial.has(key)) return;
    initial.add(key);
    for (const imported of manifest[key]?.imports ?? []) walk(imported);
  };
  walk('index.html');
  const initialFiles = [...initial].flatMap((key) => {
    const chunk = manifest[key];
    return chunk ? [chunk.file, ...(chunk.assets ?? [])] : [];
  });
  const read = (file: string) => fs.readFileSync(path.join(dist, file), 'utf8');
  const initialCode = initialFiles.filter((file) => /\.m?js$/.test(file)).map(read);

  const allFiles = fs
    .readdirSync(path.join(dist, 'assets'))
    .filter((file) => /\.m?js$/.test(file))
    .map((file) => `assets/${file}`);
  for (const library of libraries) {
    const holders = allFiles.filter((file) => read(file).includes(library.marker));
    // The library is in the build (so the check below is not vacuous)…
    expect(holders, `${library.name} is built`).not.toHaveLength(0);
    // …and not in what the first page loads.
    expect(
      initialCode.some((code) => code.includes(library.marker)),
      `${library.name} is not in the entry's static imports`,
    ).toBe(false);
  }

  // The previewers are dynamic imports of the dialog, and their vendor chunks are not initial.
  const previewers = Object.keys(manifest).filter((key) =>
    key.includes('components/files/components/previews/'),
  );
  expect(previewers.length).toBeGreaterThanOrEqual(5);
  for (const key of previewers) expect(initial.has(key), key).toBe(false);
  const dynamic = new Set(Object.values(manifest).flatMap((chunk) => chunk.dynamicImports ?? []));
  for (const key of previewers) expect(dynamic.has(key), `${key} is imported lazily`).toBe(true);
  for (const name of ['pdfjs', 'dompurify', 'papaparse']) {
    const keys = Object.entries(manifest)
      .filter(([, chunk]) => chunk.name === name)
      .map(([key]) => key);
    expect(keys, `the ${name} chunk`).not.toHaveLength(0);
    for (const key of keys) expect(initial.has(key), key).toBe(false);
  }
  // The workers (pdf.js's own, the Word, spreadsheet and ZIP readers) are separate files.
  const workers = Object.values(manifest).flatMap((chunk) => chunk.assets ?? []);
  for (const worker of ['pdf.worker', 'word.worker', 'sheet.worker', 'zip.worker']) {
    expect(
      workers.some((file) => file.includes(worker)),
      worker,
    ).toBe(true);
    expect(
      initialFiles.some((file) => file.includes(worker)),
      worker,
    ).toBe(false);
  }
});
