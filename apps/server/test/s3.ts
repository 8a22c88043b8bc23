import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { Config } from '../src/config.ts';

/** The one key pair s3rver knows (its built-in account). */
const accessKeyId = 'S3RVER';
const secretAccessKey = 'S3RVER';

export type TestS3 = {
  /** The store configuration that points at this server, path-style. */
  s3: NonNullable<Config['s3']>;
  /** Stops the server and removes its folder. */
  stop: () => Promise<void>;
};

/**
 * A real S3-compatible server (s3rver) on a free loopback port, storing into a temporary folder,
 * with one bucket made. What it checks and what it does not: docs/decisions/0014.
 */
export async function startS3(bucket = 'imprest-files'): Promise<TestS3> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'imprest-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  return {
    s3: {
      bucket,
      endpoint: `http://127.0.0.1:${port}`,
      region: 'eu-west-1',
      accessKeyId,
      secretAccessKey,
      forcePathStyle: true,
    },
    async stop() {
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}
