import { errorResponse } from '@imprest/domain/api/common.ts';
import { isUploadAllowed, maxUploadBytes } from '@imprest/domain/files.ts';
import { messages } from '@imprest/domain/messages.ts';
import { getPresignedPostUrl } from './get-presigned-post-url.ts';

/** Shown when the store refuses a file without a sentence of ours (S3 answers in XML). */
export const uploadFailed = 'Upload failed';

function tooLarge(maxBytes: number): string {
  return `The file is larger than ${Math.floor(maxBytes / 1024 / 1024)} MB.`;
}

/** Why a file cannot be uploaded before anything is asked of the server, or null (decisions §6). */
export function uploadProblem(
  file: { name: string; size: number },
  maxBytes: number = maxUploadBytes,
): string | null {
  if (!isUploadAllowed(file.name)) return messages.fileExtensionNotSupported;
  if (file.size === 0) return 'The file is empty.';
  if (file.size > maxBytes) return tooLarge(maxBytes);
  return null;
}

/** The sentence of a refused upload: our local store answers JSON `{error}`, S3 answers XML. */
async function refusalOf(response: Response): Promise<string> {
  try {
    const parsed = errorResponse.safeParse(JSON.parse(await response.text()));
    if (parsed.success) return parsed.data.error;
  } catch {
    // Not JSON (S3's XML, a proxy's HTML page): the generic sentence.
  }
  return uploadFailed;
}

/**
 * Uploads one file (spec §7 File upload): asks for a presigned POST, then sends every one of its
 * fields and the file itself, last, in the field `file`, straight to the store. The store is
 * another host with S3, so the call carries no token. Resolves to the stored name for `file_paths`;
 * rejects with an Error whose message can be shown, or an AbortError when `signal` aborts.
 */
export async function uploadFile(
  file: File,
  options: { signal?: AbortSignal } = {},
): Promise<string> {
  const problem = uploadProblem(file);
  if (problem) throw new Error(problem);

  const presigned = await getPresignedPostUrl(file.name, options.signal);
  if (file.size > presigned.max_bytes) throw new Error(tooLarge(presigned.max_bytes));

  const body = new FormData();
  for (const [name, value] of Object.entries(presigned.fields)) body.append(name, value);
  // S3 ignores every field after the file: it must come last.
  body.append('file', file, file.name);

  let response: Response;
  try {
    response = await fetch(presigned.url, {
      method: 'POST',
      body,
      credentials: 'omit',
      signal: options.signal,
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new Error(uploadFailed, { cause: error });
  }
  if (!response.ok) throw new Error(await refusalOf(response));
  return presigned.file_name;
}
