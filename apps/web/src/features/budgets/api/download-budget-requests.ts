import { useMutation } from '@tanstack/react-query';
import { apiDownload, saveFile } from '../../../lib/api-download.ts';

/** GET budget/download/{code}: the budget's requests as an xlsx file (finance). */
export async function downloadBudgetRequests(code: string): Promise<void> {
  const file = await apiDownload(
    `budget/download/${encodeURIComponent(code)}`,
    `${code}-requests.xlsx`,
  );
  saveFile(file);
}

/** Downloads a budget's requests; the page shows 'Failed to download' when it fails (spec §8). */
export function useDownloadBudgetRequests() {
  return useMutation({ mutationFn: downloadBudgetRequests });
}
