import { useMutation } from '@tanstack/react-query';
import { apiDownload, saveFile } from '../../../lib/api-download.ts';

type DownloadRequestsInput = {
  /** `user` for the caller's own requests (staff mode), otherwise the caller's role (admin mode). */
  mode: string;
  userId: string;
  fullname: string;
};

/** GET requests/download/{system_role}?id=: the spreadsheet '<fullname> requests.xlsx' (spec §7, §9). */
export async function downloadRequests({ mode, userId, fullname }: DownloadRequestsInput) {
  const fileName = `${fullname} requests.xlsx`;
  const query = new URLSearchParams({ id: userId }).toString();
  const file = await apiDownload(
    `requests/download/${encodeURIComponent(mode)}?${query}`,
    fileName,
  );
  saveFile({ blob: file.blob, filename: fileName });
}

/** The Download Requests button's call. */
export function useDownloadRequests() {
  return useMutation({ mutationFn: downloadRequests });
}
