import { presignedPostResponse, type PresignedPostResponse } from '@imprest/domain/api/files.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * GET files/presigned-post-url?file_name=: where and how to upload one file (spec §7, decisions §6).
 * The answer's `file_name` is the stored name that goes into `file_paths`.
 */
export function getPresignedPostUrl(
  fileName: string,
  signal?: AbortSignal,
): Promise<PresignedPostResponse> {
  return apiRequest('files/presigned-post-url', {
    query: { file_name: fileName },
    schema: presignedPostResponse,
    signal,
  });
}
