import { maxUploadBytes } from '@imprest/domain/files.ts';
import { useEffect, useState } from 'react';

/** The file's bytes, while they come (percent when the size is known), or why they did not. */
export type FileBytes =
  | { status: 'loading'; percent: number | null }
  | { status: 'done'; bytes: Uint8Array }
  | { status: 'error'; isNotFound: boolean };

/** The store answered 404: the file is gone. */
class NotFound extends Error {}

/**
 * Fetches a stored file through its presigned link, counting the bytes as they arrive for the
 * progress ring. No token goes with it (the link is the authority, decisions §6); a file past the
 * upload limit is not read on.
 */
async function fetchBytes(
  url: string,
  signal: AbortSignal,
  onProgress: (percent: number | null) => void,
): Promise<Uint8Array> {
  const response = await fetch(url, { credentials: 'omit', signal });
  if (response.status === 404) throw new NotFound();
  if (!response.ok || !response.body) throw new Error(`The store answered ${response.status}`);
  const size = Number(response.headers.get('content-length')) || null;
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.length;
    if (received > maxUploadBytes + 1024)
      throw new Error('The file is larger than an upload may be');
    onProgress(size ? Math.min(100, (received / size) * 100) : null);
  }
  const bytes = new Uint8Array(received);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

/** The bytes of the file behind `url`, fetched once per link. */
export function useFileBytes(url: string): FileBytes {
  const [state, setState] = useState<FileBytes>({ status: 'loading', percent: null });
  useEffect(() => {
    const controller = new AbortController();
    setState({ status: 'loading', percent: null });
    fetchBytes(url, controller.signal, (percent) => setState({ status: 'loading', percent })).then(
      (bytes) => setState({ status: 'done', bytes }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setState({ status: 'error', isNotFound: error instanceof NotFound });
      },
    );
    return () => controller.abort();
  }, [url]);
  return state;
}
