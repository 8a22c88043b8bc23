import { useMutation } from '@tanstack/react-query';
import { apiDownload, saveFile } from '../../../lib/api-download.ts';
import type { AuditFilters } from './get-audit-events.ts';

/** GET audit/download: the filtered trail as 'Audit trail.xlsx' (director). */
export async function downloadAudit(filters: AuditFilters): Promise<void> {
  const query = new URLSearchParams(
    Object.entries(filters).filter((entry): entry is [string, string] => Boolean(entry[1])),
  ).toString();
  const file = await apiDownload(`audit/download${query ? `?${query}` : ''}`, 'Audit trail.xlsx');
  saveFile(file);
}

/** The Download button's call. */
export function useDownloadAudit() {
  return useMutation({ mutationFn: downloadAudit });
}
