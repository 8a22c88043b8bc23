import type { Database } from '../src/db/client.ts';

type Watched = {
  _write: (chunk: Buffer, encoding: string, done: () => void) => void;
  _writev: (chunks: { chunk: Buffer }[], done: () => void) => void;
};

/**
 * Watches the socket of a pool of one connection (`connect(url, { max: 1 })`): the answer lists
 * every write that reaches it, as the number of pg's messages it carried (issue 13: a write's
 * statements leave together, db/pipelined.ts and db/transaction.ts).
 */
export async function watchSocketWrites(single: Database): Promise<number[]> {
  const client = await single.$client.connect();
  client.release();
  const socket = (client as unknown as { connection: { stream: Watched } }).connection.stream;
  const writes: number[] = [];
  const write = socket._write.bind(socket);
  const writev = socket._writev.bind(socket);
  socket._write = (chunk, encoding, done) => {
    writes.push(1);
    write(chunk, encoding, done);
  };
  socket._writev = (chunks, done) => {
    writes.push(chunks.length);
    writev(chunks, done);
  };
  return writes;
}
