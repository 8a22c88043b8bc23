import { useEffect, useState, type ReactNode } from 'react';
import { FailedToLoad, PreviewLoading, PreviewMessage } from './preview-parts.tsx';
import { runWorker } from './run-worker.ts';

/** Where a previewer's worker is: reading, done, or why there is nothing to show. */
export type WorkerState<T> =
  | { status: 'loading' }
  | { status: 'ready'; result: T }
  | { status: 'empty' }
  | { status: 'refused'; message: string }
  | { status: 'failed' };

/**
 * Runs one worker for `message` whenever `key` changes (a new file) and follows its answer; the
 * worker is ended when the preview closes or moves on (run-worker.ts).
 */
export function useWorkerResult<T>(
  createWorker: () => Worker,
  message: unknown,
  key: unknown,
): WorkerState<T> {
  const [state, setState] = useState<WorkerState<T>>({ status: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    setState({ status: 'loading' });
    runWorker<T>(createWorker, message, { signal: controller.signal }).then(
      (answer) => {
        if (answer.ok) setState({ status: 'ready', result: answer.result });
        else if (answer.reason === 'failed') setState({ status: 'failed' });
        else if (answer.reason === 'empty') setState({ status: 'empty' });
        else setState({ status: 'refused', message: answer.message });
      },
      () => {
        if (!controller.signal.aborted) setState({ status: 'failed' });
      },
    );
    return () => controller.abort();
    // The file (`key`) decides; the worker factory and message follow from it.
  }, [key]);
  return state;
}

/**
 * What a previewer shows until its worker has a result: progress, 'Failed to load content', or a
 * sentence for an empty or refused file, named by `noun` ("document", "spreadsheet").
 */
export function workerStateMessage(state: WorkerState<unknown>, noun: string): ReactNode {
  switch (state.status) {
    case 'loading':
      return <PreviewLoading text={`Reading the ${noun}…`} />;
    case 'failed':
      return <FailedToLoad />;
    case 'empty':
      return <PreviewMessage status="info" text={`This ${noun} is empty.`} />;
    case 'refused':
      return (
        <PreviewMessage
          status="warning"
          text={`This ${noun} is not opened here.`}
          detail={state.message}
        />
      );
    case 'ready':
      return null;
  }
}
