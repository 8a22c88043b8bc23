import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { describeError } from './cli-output.ts';

/** What a call rejected with. */
async function rejection(work: () => Promise<unknown>): Promise<unknown> {
  return work().then(
    () => expect.fail('expected a rejection'),
    (error: unknown) => error,
  );
}

describe('how `npm run backup` and `npm run restore` describe a failure', () => {
  it("names the operator's mistake in one line, without a stack trace", async () => {
    // A DATABASE_URL whose port nothing listens on, and a path below a regular file.
    const refused = await rejection(async () => {
      const client = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:1/imprest' });
      await client.connect();
    });
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'imprest-cli-output-'));
    try {
      const aFile = path.join(folder, 'a-file');
      await fs.writeFile(aFile, 'not a folder');
      const notAFolder = await rejection(() =>
        fs.mkdir(path.join(aFile, 'backups'), { recursive: true }),
      );
      expect([describeError(refused), describeError(notAFolder)]).toEqual([
        'connect ECONNREFUSED 127.0.0.1:1',
        `ENOTDIR: not a directory, mkdir '${path.join(aFile, 'backups')}'`,
      ]);
    } finally {
      await fs.rm(folder, { recursive: true, force: true });
    }
  });

  it('keeps the stack of a fault of its own', () => {
    const fault = new TypeError("Cannot read properties of undefined (reading 'rows')");
    expect(describeError(fault)).toBe(fault.stack);
    expect(describeError(fault)).toMatch(/\n\s+at /);
  });
});
