import net from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, stopAllProcesses } from '../../test/processes.ts';
import { connect, connectionTimeoutMs } from './client.ts';

// A DATABASE_URL whose host accepts the connection and never answers (a firewall that swallows
// packets, another service on the port): the server must say so and stop, not start forever.

const sockets = new Set<net.Socket>();
let silent: net.Server;
let silentUrl = '';

beforeAll(async () => {
  silent = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const { port } = silent.address() as net.AddressInfo;
  silentUrl = `postgres://imprest:secret@127.0.0.1:${port}/imprest`;
});

afterAll(async () => {
  await stopAllProcesses();
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => silent.close(() => resolve()));
});

describe('a database that never answers', () => {
  it('fails a query after the connection timeout instead of waiting forever', async () => {
    const db = connect(silentUrl, { connectionTimeoutMs: 300 });
    try {
      const failure: unknown = await db.execute(sql`select 1`).then(
        () => null,
        (error: unknown) => error,
      );
      // Drizzle names the query; pg's own error is its cause.
      expect((failure as Error | null)?.cause).toMatchObject({ message: /timeout/i });
    } finally {
      await db.$client.end();
    }
  });

  it(
    'ends the server start with a message naming the database and exit 1',
    async () => {
      const server = await startServerProcess({
        name: 'silent-database',
        env: { DATABASE_URL: silentUrl },
        ready: null,
      });
      const exit = await server.exited;
      expect(exit, server.tail(10)).toMatchObject({ code: 1 });
      expect(server.tail(10)).toMatch(/could not start/);
      expect(server.tail(10)).toMatch(/the database could not be reached/);
    },
    connectionTimeoutMs + 30_000,
  );
});
