import type { Database } from '../src/db/client.ts';

type Watched = {
  _write: (chunk: Buffer, encoding: string, done: () => void) => void;
  _writev: (chunks: { chunk: Buffer }[], done: () => void) => void;
};

/** Calls `seen` with every write that reaches the socket of a pool of one connection, as chunks. */
async function watchSocket(single: Database, seen: (chunks: Buffer[]) => void): Promise<void> {
  const client = await single.$client.connect();
  client.release();
  const socket = (client as unknown as { connection: { stream: Watched } }).connection.stream;
  const write = socket._write.bind(socket);
  const writev = socket._writev.bind(socket);
  socket._write = (chunk, encoding, done) => {
    seen([chunk]);
    write(chunk, encoding, done);
  };
  socket._writev = (chunks, done) => {
    seen(chunks.map(({ chunk }) => chunk));
    writev(chunks, done);
  };
}

/**
 * Watches the socket of a pool of one connection (`connect(url, { max: 1 })`): the answer lists
 * every write that reaches it, as the number of pg's messages it carried (issue 13: a write's
 * statements leave together, db/pipelined.ts and db/transaction.ts).
 */
export async function watchSocketWrites(single: Database): Promise<number[]> {
  const writes: number[] = [];
  await watchSocket(single, (chunks) => writes.push(chunks.length));
  return writes;
}

/**
 * The same, with what each write carried, as text (the statements' SQL shows in it; parameters
 * and the protocol's bytes too, unreadable), to find which statements left together.
 */
export async function watchSocketTexts(single: Database): Promise<string[]> {
  const writes: string[] = [];
  await watchSocket(single, (chunks) => writes.push(Buffer.concat(chunks).toString('latin1')));
  return writes;
}
