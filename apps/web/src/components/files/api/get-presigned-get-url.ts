import { presignedGetResponse } from '@imprest/domain/api/files.ts';
import { downloadLinkSeconds } from '@imprest/domain/files.ts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { fileKeys } from './query-keys.ts';

/**
 * A link lasts five minutes (decisions §6). Reused and renewed every half of that, the link on
 * screen always has time left, also for a Download pressed long after the dialog opened.
 */
const linkRenewMs = (downloadLinkSeconds * 1000) / 2;

/** GET files/presigned-get-url?file_name=: a five-minute link to a stored file (decisions §6). */
export async function getPresignedGetUrl(fileName: string, signal?: AbortSignal): Promise<string> {
  const response = await apiRequest('files/presigned-get-url', {
    query: { file_name: fileName },
    schema: presignedGetResponse,
    signal,
  });
  return response.url;
}

/**
 * The link to a stored file, renewed before it expires while it is shown; `fileName` null waits.
 * A 404 (no such file, or not the caller's to see) is final, as every 4xx is.
 */
export function useFileLink(fileName: string | null) {
  return useQuery({
    queryKey: fileKeys.link(fileName ?? ''),
    queryFn: ({ signal }) => getPresignedGetUrl(fileName ?? '', signal),
    enabled: Boolean(fileName),
    staleTime: linkRenewMs,
    gcTime: linkRenewMs,
    refetchInterval: linkRenewMs,
  });
}
