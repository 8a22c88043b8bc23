import fs from 'node:fs/promises';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../paths.ts';

type Manifest = {
  engines?: { node?: string };
};
type Lockfile = {
  packages: Record<string, Manifest>;
};

const readJson = async <T>(file: string): Promise<T> =>
  JSON.parse(await fs.readFile(path.join(repoRoot, file), 'utf8')) as T;

// The README promises `npm install && npm start` on any Node our package.json's `engines` admits.
// A dependency that asks for a later Node makes npm print "Unsupported engine" on a fresh install,
// and may not run there. light-my-request 6.8 (Fastify's inject) pulled cookie 2, which asks for
// Node 22; the root package.json's `overrides` hands it cookie 1.1, which has the same export.
describe('every installed package', () => {
  it("runs on the oldest Node the root package.json's engines admit", async () => {
    const root = await readJson<Manifest>('package.json');
    const oldest = semver.minVersion(root.engines?.node ?? '');
    expect(oldest?.version).toBe('20.19.0');
    const lockfile = await readJson<Lockfile>('package-lock.json');
    const refused = Object.entries(lockfile.packages)
      .filter(([, manifest]) => manifest.engines?.node !== undefined)
      .filter(([, manifest]) => !semver.satisfies(oldest!, manifest.engines!.node!))
      .map(([where, manifest]) => `${where} asks for Node ${manifest.engines!.node}`);
    expect(refused).toEqual([]);
  });
});
