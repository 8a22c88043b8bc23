import { displayFileName } from '@imprest/domain/requests.ts';
import { useState } from 'react';
import { FileChip } from './file-chip.tsx';
import { FilePreviewDialog } from './file-preview-dialog.tsx';
import './files.css';

type AttachmentListProps = {
  /** Stored names, e.g. a request's `file_paths`. */
  fileNames: readonly string[];
  /**
   * Opens a file. Give it when the list sits where it may be re-mounted (a responsive table cell
   * re-lays itself out on resize) and keep the FilePreviewDialog outside; without it the list
   * shows the dialog itself.
   */
  onOpen?: (fileName: string) => void;
};

/** Attached files as chips named without their random prefix; each opens the preview dialog. */
export function AttachmentList({ fileNames, onOpen }: AttachmentListProps) {
  const [previewName, setPreviewName] = useState<string | null>(null);
  return (
    <>
      <div className="file-chips attachment-chips" data-testid="attachment-list">
        {fileNames.map((name, index) => (
          <FileChip
            key={`${name}-${index}`}
            label={displayFileName(name)}
            onOpen={() => (onOpen ?? setPreviewName)(name)}
          />
        ))}
      </div>
      {onOpen ? null : (
        <FilePreviewDialog fileName={previewName} onClose={() => setPreviewName(null)} />
      )}
    </>
  );
}
