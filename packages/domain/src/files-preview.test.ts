import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  previewerOf,
  readZipDirectory,
  zipArchiveRefusal,
  zipEntryData,
  zipEntryLimitBytes,
  zipEntryRefusal,
  ZipFormatError,
  type ZipEntry,
} from './files.ts';

type Member = {
  name: string;
  data: Buffer;
  isDeflated?: boolean;
  declaredSize?: number;
  flags?: number;
};

/** A ZIP archive written by hand, so the tests control every field of its directory. */
function zipOf(members: Member[], comment = ''): Uint8Array {
  const locals: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const member of members) {
    const name = Buffer.from(member.name, 'utf8');
    const stored = member.isDeflated ? deflateRawSync(member.data) : member.data;
    const size = member.declaredSize ?? member.data.length;
    const flags = member.flags ?? 0x800;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(member.isDeflated ? 8 : 0, 8);
    local.writeUInt32LE(stored.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, stored);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(flags, 8);
    header.writeUInt16LE(member.isDeflated ? 8 : 0, 10);
    header.writeUInt32LE(stored.length, 20);
    header.writeUInt32LE(size, 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt32LE(offset, 42);
    directory.push(header, name);
    offset += 30 + name.length + stored.length;
  }
  const central = Buffer.concat(directory);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(members.length, 8);
  end.writeUInt16LE(members.length, 10);
  end.writeUInt32LE(central.length, 12);
  end.writeUInt32LE(offset, 16);
  end.writeUInt16LE(Buffer.byteLength(comment), 20);
  return new Uint8Array(Buffer.concat([...locals, central, end, Buffer.from(comment)]));
}

function entryOf(overrides: Partial<ZipEntry>): ZipEntry {
  return {
    index: 0,
    name: 'receipt.png',
    compressedSize: 1000,
    size: 2000,
    method: 8,
    isDirectory: false,
    isEncrypted: false,
    localHeaderOffset: 0,
    ...overrides,
  };
}

describe('previewerOf', () => {
  it.each([
    ['a.PNG', 'image'],
    ['a.jpeg', 'image'],
    ['a.pdf', 'pdf'],
    ['a.docx', 'word'],
    ['a.doc', 'download'],
    ['a.xlsx', 'sheet'],
    ['a.csv', 'sheet'],
    ['a.xls', 'download'],
    ['a.zip', 'zip'],
    ['a.exe', 'unsupported'],
    ['README', 'unsupported'],
  ])('%j → %s', (name, previewer) => {
    expect(previewerOf(name)).toBe(previewer);
  });
});

describe('readZipDirectory', () => {
  it('lists names, sizes and methods from the central directory, with a comment after it', () => {
    const png = Buffer.from('not really a png, but bytes');
    const csv = Buffer.from('a,b\n1,2\n'.repeat(50));
    const bytes = zipOf(
      [
        { name: 'scans/', data: Buffer.alloc(0) },
        { name: 'scans/stamp.png', data: png },
        { name: 'Café totals.csv', data: csv, isDeflated: true },
      ],
      'made by hand',
    );
    const { entries, total } = readZipDirectory(bytes);
    expect(total).toBe(3);
    expect(
      entries.map((entry) => [entry.name, entry.size, entry.method, entry.isDirectory]),
    ).toEqual([
      ['scans/', 0, 0, true],
      ['scans/stamp.png', png.length, 0, false],
      ['Café totals.csv', csv.length, 8, false],
    ]);
    expect(Buffer.from(zipEntryData(bytes, entries[1]!)).toString()).toBe(png.toString());
    expect(zipEntryData(bytes, entries[2]!).length).toBe(entries[2]!.compressedSize);
  });

  it('decodes names without the UTF-8 flag as code page 437', () => {
    const bytes = zipOf([{ name: 'x', data: Buffer.from('1'), flags: 0 }]);
    // Swap the name's byte for 0x81, 'ü' in code page 437.
    const { entries } = readZipDirectory(bytes);
    const nameAt = bytes.length - 22 - 1;
    bytes[nameAt] = 0x81;
    expect(entries[0]!.name).toBe('x');
    expect(readZipDirectory(bytes).entries[0]!.name).toBe('ü');
  });

  it('reads an empty archive and stops at the limit', () => {
    expect(readZipDirectory(zipOf([])).entries).toEqual([]);
    const many = zipOf(
      Array.from({ length: 5 }, (_, i) => ({ name: `${i}.txt`, data: Buffer.from('x') })),
    );
    const { entries, total } = readZipDirectory(many, 2);
    expect(entries).toHaveLength(2);
    expect(total).toBe(5);
  });

  it.each([
    ['not a zip', new Uint8Array(Buffer.from('%PDF-1.4 garbage'))],
    ['empty', new Uint8Array(0)],
    ['a truncated directory', zipOf([{ name: 'a.txt', data: Buffer.from('a') }]).subarray(20)],
  ])('refuses %s', (_, bytes) => {
    expect(() => readZipDirectory(bytes)).toThrow(ZipFormatError);
  });

  it('lists a zip bomb without expanding it', () => {
    // 60 MB of zeros deflate to about 60 KB: a 1,000:1 ratio.
    const bomb = zipOf([
      { name: 'zeros.bin', data: Buffer.alloc(60 * 1024 * 1024), isDeflated: true },
    ]);
    expect(bomb.length).toBeLessThan(200_000);
    const { entries } = readZipDirectory(bomb);
    expect(entries[0]!.size).toBe(60 * 1024 * 1024);
    expect(zipEntryRefusal(entries[0]!)).toMatch(/more than 50 MB/);
  });
});

describe('zipEntryRefusal', () => {
  it.each<[string, Partial<ZipEntry>, RegExp | null]>([
    ['an ordinary deflated receipt', {}, null],
    ['a stored entry', { method: 0, compressedSize: 2000 }, null],
    ['a small entry of blanks, however packed', { compressedSize: 10, size: 1_000_000 }, null],
    ['past 50 MB', { compressedSize: 40 * 1024 * 1024, size: zipEntryLimitBytes + 1 }, /50 MB/],
    ['past 100:1 above 1 MB', { compressedSize: 20_000, size: 2_100_000 }, /100 times/],
    ['a folder', { isDirectory: true, name: 'a/' }, /folder/],
    ['encrypted', { isEncrypted: true }, /password/],
    ['another method (LZMA)', { method: 14 }, /cannot expand/],
  ])('%s', (_, overrides, refusal) => {
    const answer = zipEntryRefusal(entryOf(overrides));
    if (refusal) expect(answer).toMatch(refusal);
    else expect(answer).toBeNull();
  });

  it('refuses an archive whose entries add up past 100 MB', () => {
    const entries = Array.from({ length: 3 }, (_, index) =>
      entryOf({ index, name: `${index}.xml`, compressedSize: 20e6, size: 40 * 1024 * 1024 }),
    );
    expect(zipArchiveRefusal(entries.slice(0, 2))).toBeNull();
    expect(zipArchiveRefusal(entries)).toMatch(/100 MB/);
    expect(
      zipArchiveRefusal([entryOf({ name: 'bomb.xml', compressedSize: 1000, size: 10e6 })]),
    ).toMatch(/^bomb\.xml: /);
  });
});
