import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serverNodeFlags } from '../../test/processes.ts';
import { serverRoot } from '../paths.ts';

// `npm start` (scripts/start.mjs) and the tests' server processes read apps/server/node-flags.json;
// the Dockerfile and the package's own start script cannot, so they must spell the same flags
// (docs/decisions/0024: the young generation's cap keeps a download under issue 13's memory peak).
describe("the server's Node flags", () => {
  // Not --enable-source-maps, which keeps every package's source map too: the bundle maps its own
  // stack traces (ops/stack-traces.ts, docs/decisions/0046).
  it('cap the young generation', () => {
    expect(serverNodeFlags).toEqual(['--max-semi-space-size=8']);
  });

  it('are the Dockerfile CMD', async () => {
    const dockerfile = await fs.readFile(path.join(serverRoot, '../../Dockerfile'), 'utf8');
    const commands = [...dockerfile.matchAll(/^CMD (\[.*\])$/gm)].map(
      (match) => JSON.parse(match[1] ?? '[]') as string[],
    );
    expect(commands).toContainEqual(['node', ...serverNodeFlags, 'apps/server/dist/main.js']);
  });

  it("are the server package's start script", async () => {
    const manifest = JSON.parse(
      await fs.readFile(path.join(serverRoot, 'package.json'), 'utf8'),
    ) as { scripts: Record<string, string> };
    expect(manifest.scripts.start).toBe(
      `node build.mjs && node ${serverNodeFlags.join(' ')} dist/main.js`,
    );
  });
});
