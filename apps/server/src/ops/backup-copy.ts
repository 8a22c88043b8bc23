import { once } from 'node:events';
import type { Duplex, Readable, Writable } from 'node:stream';
import type pg from 'pg';

/**
 * node-postgres's connection with the COPY messages its types leave out. The client routes COPY
 * traffic to the active query (`handleCopyInResponse`, `handleCopyData`); pg-copy-streams is built
 * on the same hooks, and is not a dependency of ours (docs/decisions/0017).
 */
type CopyConnection = {
  stream: Duplex;
  query: (text: string) => void;
  sendCopyFromChunk: (chunk: Buffer) => void;
  endCopyFrom: () => void;
  sendCopyFail: (message: string) => void;
};

/** The rows a COPY reports in its command tag (`COPY 42`). */
function copiedRows(message: { text?: string }): number {
  const match = /^COPY (\d+)$/.exec(message.text ?? '');
  return match ? Number(match[1]) : 0;
}

/** One COPY statement run as node-postgres's active query (simple query protocol). */
abstract class CopyQuery implements pg.Submittable {
  protected connection: CopyConnection | undefined;
  protected rows = 0;
  protected failure: Error | undefined;
  readonly done: Promise<number>;
  private resolve: (rows: number) => void = () => undefined;
  private reject: (error: Error) => void = () => undefined;

  constructor(private readonly text: string) {
    this.done = new Promise<number>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  submit(connection: pg.Connection): void {
    this.connection = connection as unknown as CopyConnection;
    this.connection.query(this.text);
  }

  handleCommandComplete(message: { text?: string }): void {
    this.rows = copiedRows(message);
  }

  handleReadyForQuery(): void {
    this.finish().then(
      () => this.resolve(this.rows),
      (error: unknown) => this.reject(error instanceof Error ? error : new Error(String(error))),
    );
  }

  /** The server's error, or the connection's; node-postgres sends no ReadyForQuery to us after it. */
  handleError(error: Error): void {
    this.failure = error;
    this.abort(error);
    this.reject(error);
  }

  handleCopyInResponse(connection: pg.Connection): void {
    (connection as unknown as CopyConnection).sendCopyFail('unexpected COPY FROM STDIN');
  }

  handleCopyData(_message: { chunk: Buffer }): void {}
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handlePortalSuspended(): void {}
  handleEmptyQuery(): void {}

  /** Called once the server is ready again: flush what is left, or throw. */
  protected abstract finish(): Promise<void>;
  protected abstract abort(error: Error): void;
}

/** `COPY … TO STDOUT`: every chunk goes to `sink`, which is ended when the command completes. */
class CopyOut extends CopyQuery {
  private sinkError: Error | undefined;
  private isPaused = false;

  constructor(
    text: string,
    private readonly sink: Writable,
  ) {
    super(text);
    sink.on('error', (error: Error) => {
      // Keep reading (and dropping) the rows so the connection stays usable, then report it.
      this.sinkError ??= error;
      this.resume();
    });
  }

  /** Reads the socket again; called on the sink's drain, and always once the COPY is over. */
  private readonly resume = (): void => {
    if (!this.isPaused) return;
    this.isPaused = false;
    this.sink.off('drain', this.resume);
    this.connection?.stream.resume();
  };

  override handleCopyData(message: { chunk: Buffer }): void {
    if (this.sinkError) return;
    // The chunk is a view into the protocol parser's buffer, which it reuses for the next
    // messages: copy it, or rows still queued for the disk change under our feet.
    const isBelowLimit = this.sink.write(Buffer.from(message.chunk));
    if (!isBelowLimit && !this.isPaused) {
      // Back-pressure: stop reading the socket until the sink has caught up.
      this.isPaused = true;
      this.connection?.stream.pause();
      this.sink.once('drain', this.resume);
    }
  }

  protected async finish(): Promise<void> {
    // An ending sink never emits 'drain': the socket must not stay paused for the next query.
    this.resume();
    if (this.sinkError) throw this.sinkError;
    this.sink.end();
    if (!this.sink.writableFinished) await once(this.sink, 'finish');
    if (this.sinkError) throw this.sinkError;
  }

  protected abort(error: Error): void {
    this.resume();
    this.sink.destroy(error);
  }
}

/** `COPY … FROM STDIN`: sends `source` chunk by chunk, with the socket's back-pressure. */
class CopyIn extends CopyQuery {
  constructor(
    text: string,
    private readonly source: Readable,
  ) {
    super(text);
  }

  override handleCopyInResponse(connection: pg.Connection): void {
    void this.pump(connection as unknown as CopyConnection);
  }

  private async pump(connection: CopyConnection): Promise<void> {
    try {
      for await (const chunk of this.source) {
        // After an error the server drops whatever follows; stop reading.
        if (this.failure) return;
        connection.sendCopyFromChunk(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
        if (connection.stream.writableNeedDrain) await once(connection.stream, 'drain');
      }
      if (!this.failure) connection.endCopyFrom();
    } catch (error) {
      if (!this.failure)
        connection.sendCopyFail(error instanceof Error ? error.message : String(error));
    }
  }

  protected async finish(): Promise<void> {}

  protected abort(): void {
    this.source.destroy();
  }
}

/** Runs `COPY … TO STDOUT` on `client`, writing its text into `sink`; answers the row count. */
export async function copyOut(
  client: pg.ClientBase,
  text: string,
  sink: Writable,
): Promise<number> {
  return client.query(new CopyOut(text, sink)).done;
}

/** Runs `COPY … FROM STDIN` on `client`, reading the data from `source`; answers the row count. */
export async function copyIn(
  client: pg.ClientBase,
  text: string,
  source: Readable,
): Promise<number> {
  return client.query(new CopyIn(text, source)).done;
}
