import {
  CloseOutlined,
  FileExcelOutlined,
  FileImageOutlined,
  FileOutlined,
  FilePdfOutlined,
  FileWordOutlined,
  FileZipOutlined,
  LoadingOutlined,
} from '@ant-design/icons';
import { fileExtension, previewKind } from '@imprest/domain/files.ts';
import { Button } from 'antd';
import type { ReactNode } from 'react';
import './files.css';

/** The icon of a file by its extension. */
function fileIcon(fileName: string): ReactNode {
  switch (previewKind(fileName)) {
    case 'image':
      return <FileImageOutlined />;
    case 'pdf':
      return <FilePdfOutlined />;
    case 'zip':
      return <FileZipOutlined />;
    case 'office':
      return ['doc', 'docx'].includes(fileExtension(fileName)) ? (
        <FileWordOutlined />
      ) : (
        <FileExcelOutlined />
      );
    default:
      return <FileOutlined />;
  }
}

type FileChipProps = {
  /** The name people read: the original name, or a stored name without its prefix. */
  label: string;
  isUploading?: boolean;
  hasError?: boolean;
  /** Opens the file; without it the label is plain text. */
  onOpen?: () => void;
  /** Removes the file; without it the chip has no remove button. */
  onRemove?: () => void;
};

/** One file as a chip (spec §2 Shared widgets): its icon, its name, and a remove button. */
export function FileChip({ label, isUploading, hasError, onOpen, onRemove }: FileChipProps) {
  return (
    <span
      className={[
        'file-chip',
        hasError ? 'file-chip-error' : '',
        onRemove ? 'file-chip-removable' : '',
      ]
        .filter(Boolean)
        .join(' ')}
      data-testid="file-chip"
      aria-busy={isUploading || undefined}
    >
      {isUploading ? <LoadingOutlined aria-label="Uploading" /> : fileIcon(label)}
      {onOpen ? (
        <button type="button" className="file-chip-name" title={label} onClick={onOpen}>
          {label}
        </button>
      ) : (
        <span className="file-chip-name" title={label}>
          {label}
        </span>
      )}
      {onRemove ? (
        <Button
          className="file-chip-remove"
          type="text"
          size="small"
          icon={<CloseOutlined />}
          aria-label={`Remove ${label}`}
          onClick={onRemove}
        />
      ) : null}
    </span>
  );
}
