import { displayFileName } from '@imprest/domain/requests.ts';
import { useState } from 'react';
import { FileChip } from './file-chip.tsx';
import { FilePreviewDialog } from './file-preview-dialog.tsx';
import './files.css';

type AttachmentListProps = {
  /** Stored names, e.g. a request's `file_paths`. */
  fileNames: readonly string[];
};

/** Attached files as chips named without their random prefix; each opens the preview dialog. */
export function AttachmentList({ fileNames }: AttachmentListProps) {
  const [previewName, setPreviewName] = useState<string | null>(null);
  return (
    <>
      <div className="file-chips" data-testid="attachment-list">
        {fileNames.map((name, index) => (
          <FileChip
            key={`${name}-${index}`}
            label={displayFileName(name)}
            onOpen={() => setPreviewName(name)}
          />
        ))}
      </div>
      <FilePreviewDialog fileName={previewName} onClose={() => setPreviewName(null)} />
    </>
  );
}
