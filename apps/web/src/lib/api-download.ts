import { errorResponse } from '@imprest/domain/api/common.ts';
import { ApiError, apiBase } from './api-client.ts';
import { readToken } from './storage.ts';

export type DownloadedFile = { blob: Blob; filename: string };

/** Spec §8: a download that failed. */
export const downloadFailed = 'Failed to download';

/** The file name of a `content-disposition` header, if it names one. */
function filenameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  if (encoded) return decodeURIComponent(encoded);
  return /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? null;
}

/**
 * GETs a file from the API with both token headers (spec §7) and returns it as a blob with the
 * name the server gave it; throws ApiError with the server's sentence when it refuses.
 */
export async function apiDownload(path: string, fallbackName: string): Promise<DownloadedFile> {
  const token = readToken();
  const headers = new Headers();
  if (token) {
    headers.set('Authorization', `Bearer ${token}`);
    headers.set('token', token);
  }
  const response = await fetch(`${apiBase}/${path.replace(/^\/+/, '')}`, { headers });
  if (response.status !== 200) {
    const text = await response.text();
    let message = text.trim() || response.statusText || `HTTP ${response.status}`;
    try {
      const parsed = errorResponse.safeParse(JSON.parse(text));
      if (parsed.success) message = parsed.data.error;
    } catch {
      // Not JSON: the text itself is the message (spec §7).
    }
    throw new ApiError(response.status, message);
  }
  const blob = await response.blob();
  return {
    blob,
    filename: filenameOf(response.headers.get('content-disposition')) ?? fallbackName,
  };
}

/** Hands a downloaded file to the browser's save dialog. */
export function saveFile({ blob, filename }: DownloadedFile): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked a moment later: some browsers read the URL only after click() returns.
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}
