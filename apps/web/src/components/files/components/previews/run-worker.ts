/** What every previewer's worker answers: a result, or why it has none. */
export type WorkerAnswer<T> =
  { ok: true; result: T } | { ok: false; reason: 'empty' | 'refused' | 'failed'; message: string };

/** A worker gave no answer in time, or died: the page shows 'Failed to load content'. */
export class WorkerFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkerFailure';
  }
}

/** A hostile file may make a parser spin forever: past this the worker is ended. */
export const workerTimeoutMs = 20_000;

/**
 * Posts one message to a fresh worker and resolves to its answer. The worker is terminated when it
 * answers, fails, times out or `signal` aborts, so a corrupt file costs a thread for 20 s at most
 * and never the page (issue 12).
 */
export function runWorker<T>(
  createWorker: () => Worker,
  message: unknown,
  options: { transfer?: Transferable[]; signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<WorkerAnswer<T>> {
  return new Promise((resolve, reject) => {
    const worker = createWorker();
    const stop = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', handleAbort);
      worker.terminate();
    };
    const handleAbort = () => {
      stop();
      reject(new DOMException('Aborted', 'AbortError'));
    };
    const timer = setTimeout(() => {
      stop();
      reject(new WorkerFailure('The file took too long to read'));
    }, options.timeoutMs ?? workerTimeoutMs);
    options.signal?.addEventListener('abort', handleAbort);
    worker.addEventListener('message', (event: MessageEvent<WorkerAnswer<T>>) => {
      stop();
      resolve(event.data);
    });
    worker.addEventListener('error', (event) => {
      stop();
      reject(new WorkerFailure(event.message || 'The reader stopped'));
    });
    worker.addEventListener('messageerror', () => {
      stop();
      reject(new WorkerFailure('The reader answered what cannot be read'));
    });
    worker.postMessage(message, options.transfer ?? []);
  });
}

/** The worker side: answers one message with `handle`'s result, or the reason it has none. */
export function answerWith<T, M>(handle: (message: M) => Promise<T> | T): void {
  self.addEventListener('message', (event: MessageEvent<M>) => {
    void (async () => {
      let answer: WorkerAnswer<T>;
      try {
        answer = { ok: true, result: await handle(event.data) };
      } catch (error) {
        answer =
          error instanceof PreviewRefusal
            ? { ok: false, reason: error.reason, message: error.message }
            : { ok: false, reason: 'failed', message: String(error) };
      }
      const transfer = answer.ok ? transferablesOf(answer.result) : [];
      self.postMessage(answer, { transfer });
    })();
  });
}

/** A reason, not a crash: an empty file, or one refused by a limit (a zip bomb). */
export class PreviewRefusal extends Error {
  constructor(
    readonly reason: 'empty' | 'refused',
    message: string,
  ) {
    super(message);
    this.name = 'PreviewRefusal';
  }
}

function transferablesOf(result: unknown): Transferable[] {
  if (result instanceof Uint8Array) return [result.buffer as ArrayBuffer];
  if (result && typeof result === 'object' && 'bytes' in result) {
    const bytes = (result as { bytes: unknown }).bytes;
    if (bytes instanceof Uint8Array) return [bytes.buffer as ArrayBuffer];
  }
  return [];
}
