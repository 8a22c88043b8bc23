import { useMutation } from '@tanstack/react-query';
import { apiDownload, saveFile } from '../../../lib/api-download.ts';

type DownloadRetirementsInput = { mode: string; userId: string; fullname: string };

/** GET retirement/download/{role}?id=: the spreadsheet '<fullname> retirements.xlsx' (spec §7, §9). */
export async function downloadRetirements({ mode, userId, fullname }: DownloadRetirementsInput) {
  const fileName = `${fullname} retirements.xlsx`;
  const query = new URLSearchParams({ id: userId }).toString();
  const file = await apiDownload(
    `retirement/download/${encodeURIComponent(mode)}?${query}`,
    fileName,
  );
  saveFile({ blob: file.blob, filename: fileName });
}

/** The Download Retirements button's call. */
export function useDownloadRetirements() {
  return useMutation({ mutationFn: downloadRetirements });
}
