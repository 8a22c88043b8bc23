import { InboxOutlined } from '@ant-design/icons';
import { fileExtension, maxUploadBytes, uploadExtensions } from '@imprest/domain/files.ts';
import { messages } from '@imprest/domain/messages.ts';
import { displayFileName } from '@imprest/domain/requests.ts';
import { Alert, Flex, Upload, type UploadProps } from 'antd';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { focusInPlaceOf } from '../../../lib/focus.ts';
import { useIsMobile } from '../../../lib/use-media-query.ts';
import { uploadFailed, uploadFile, uploadProblem } from '../api/upload-file.ts';
import { FileChip } from './file-chip.tsx';
import { FilePreviewDialog } from './file-preview-dialog.tsx';
import './files.css';

/** The file dialog offers only the allowed extensions; dropped files are checked one by one. */
const accept = {
  format: uploadExtensions.map((extension) => `.${extension}`).join(','),
  filter: 'native',
} as const;

const maxMegabytes = Math.floor(maxUploadBytes / 1024 / 1024);

const allowedHint = `${uploadExtensions.map((extension) => extension.toUpperCase()).join(', ')}; up to ${maxMegabytes} MB each.`;

/** Spec §5: 'only csv when the type is csv'. */
const csvAccept = { format: '.csv', filter: 'native' } as const;
const csvHint = `CSV only; up to ${maxMegabytes} MB.`;

/**
 * Moves the focus from the control at `index` of `selector` in `area`, just removed, to the one
 * now in its place, else to the drop area.
 */
function focusInPlaceWithin(area: HTMLElement | null, selector: string, index: number) {
  if (!area) return;
  const dropArea = area.querySelector<HTMLElement>('.ant-upload[role="button"]');
  focusInPlaceOf(area.querySelectorAll<HTMLElement>(selector), index, dropArea);
}

const chipRemoveButtons = '.file-chip-remove';
const errorCloseButtons = '.file-upload-error .ant-alert-close-icon';

type PendingUpload = { uid: string; name: string };
type Failure = { uid: string; name: string; message: string };

type FileUploadAreaProps = {
  /** Set by Form.Item: the id of the file input, so the field's label names it. */
  id?: string;
  /** The stored names of the uploaded files (what `file_paths` holds). */
  value?: string[];
  onChange?: (value: string[]) => void;
  /** Told whenever uploads start or all have ended, e.g. to hold Submit meanwhile. */
  onUploadingChange?: (isUploading: boolean) => void;
  disabled?: boolean;
  /**
   * `csv` (spec §5): one .csv file at a time, handed to `onCsvFile` to be read in the browser; it
   * is neither uploaded to the store nor listed as a chip.
   */
  type?: 'files' | 'csv';
  onCsvFile?: (file: File) => void;
};

/**
 * The file upload area (spec §2 Shared widgets, §9 File upload): drag and drop or browse, several
 * files at a time and again later; each uploads at once and becomes a removable chip. A Form.Item
 * control: its value is the list of stored names.
 */
export function FileUploadArea({
  id,
  value,
  onChange,
  onUploadingChange,
  disabled,
  type = 'files',
  onCsvFile,
}: FileUploadAreaProps) {
  const isCsv = type === 'csv';
  const isMobile = useIsMobile();
  const [uploads, setUploads] = useState<PendingUpload[]>([]);
  const [failures, setFailures] = useState<Failure[]>([]);
  const [previewName, setPreviewName] = useState<string | null>(null);
  const controllers = useRef(new Map<string, AbortController>());
  const area = useRef<HTMLDivElement>(null);
  /** Where a chip was just removed, or an error dismissed, for the focus to stay there. */
  const removedAt = useRef<number | null>(null);
  const dismissedAt = useRef<number | null>(null);
  // Uploads end one by one, possibly before the new value comes back: each adds to the latest list.
  const latestValue = useRef<string[]>(value ?? []);
  useLayoutEffect(() => {
    latestValue.current = value ?? [];
  }, [value]);

  const isUploading = uploads.length > 0;
  useEffect(() => {
    onUploadingChange?.(isUploading);
  }, [isUploading, onUploadingChange]);

  // Leaving the page abandons what is still on the way.
  useEffect(() => {
    const pending = controllers.current;
    return () => {
      for (const controller of pending.values()) controller.abort();
    };
  }, []);

  function change(next: string[]) {
    latestValue.current = next;
    onChange?.(next);
  }

  async function startUpload(file: File, uid: string) {
    const problem = uploadProblem(file);
    if (problem) {
      setFailures((current) => [...current, { uid, name: file.name, message: problem }]);
      return;
    }
    const controller = new AbortController();
    controllers.current.set(uid, controller);
    setUploads((current) => [...current, { uid, name: file.name }]);
    try {
      const storedName = await uploadFile(file, { signal: controller.signal });
      if (!controller.signal.aborted) change([...latestValue.current, storedName]);
    } catch (error) {
      if (!controller.signal.aborted) {
        const message = error instanceof Error ? error.message : uploadFailed;
        setFailures((current) => [...current, { uid, name: file.name, message }]);
      }
    } finally {
      controllers.current.delete(uid);
      setUploads((current) => current.filter((upload) => upload.uid !== uid));
    }
  }

  const handleBeforeUpload: NonNullable<UploadProps['beforeUpload']> = (file, batch) => {
    // A new choice of files replaces the messages about the last one.
    if (file === batch[0]) setFailures([]);
    if (isCsv) {
      if (fileExtension(file.name) !== 'csv') {
        const message = messages.fileExtensionNotSupported;
        setFailures((current) => [...current, { uid: file.uid, name: file.name, message }]);
      } else if (file.size > maxUploadBytes) {
        const message = `The file is larger than ${maxMegabytes} MB.`;
        setFailures((current) => [...current, { uid: file.uid, name: file.name, message }]);
      } else if (file === batch[0]) {
        onCsvFile?.(file);
      }
      return Upload.LIST_IGNORE;
    }
    void startUpload(file, file.uid);
    // The upload is ours (uploadFile); antd neither sends nor lists the file.
    return Upload.LIST_IGNORE;
  };

  function handleCancel(uid: string) {
    controllers.current.get(uid)?.abort();
    controllers.current.delete(uid);
    setUploads((current) => current.filter((upload) => upload.uid !== uid));
  }

  function handleRemove(index: number) {
    removedAt.current = index;
    change(latestValue.current.filter((_name, position) => position !== index));
  }

  // The removed chip held the focus: it moves to the chip now in its place (or the last one), or
  // to the drop area when none is left, rather than to the page's start, where a keyboard user
  // would have to tab all the way back. So does a dismissed error's close button.
  const count = (value ?? []).length;
  useEffect(() => {
    const index = removedAt.current;
    removedAt.current = null;
    if (index !== null) focusInPlaceWithin(area.current, chipRemoveButtons, index);
  }, [count]);

  useEffect(() => {
    const index = dismissedAt.current;
    dismissedAt.current = null;
    if (index !== null) focusInPlaceWithin(area.current, errorCloseButtons, index);
  }, [failures.length]);

  function handleDismiss(uid: string) {
    dismissedAt.current = failures.findIndex((failure) => failure.uid === uid);
    setFailures((current) => current.filter((failure) => failure.uid !== uid));
  }

  const names = value ?? [];
  const hasChips = names.length > 0 || uploads.length > 0;

  return (
    <Flex vertical gap={12} data-testid="file-upload-area" ref={area}>
      <Upload.Dragger
        id={id}
        multiple={!isCsv}
        accept={isCsv ? csvAccept : accept}
        disabled={disabled}
        showUploadList={false}
        beforeUpload={handleBeforeUpload}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">
          {isCsv
            ? isMobile
              ? 'Tap to choose a CSV file'
              : 'Drag and drop a CSV file here, or click to browse'
            : isMobile
              ? 'Tap to choose files'
              : 'Drag and drop files here, or click to browse'}
        </p>
        <p className="ant-upload-hint">
          {isUploading
            ? `Uploading ${uploads.length} ${uploads.length === 1 ? 'file' : 'files'}…`
            : isCsv
              ? csvHint
              : allowedHint}
        </p>
      </Upload.Dragger>
      {hasChips ? (
        <div className="file-chips" data-testid="file-chips">
          {names.map((name, index) => (
            <FileChip
              key={`${name}-${index}`}
              label={displayFileName(name)}
              onOpen={() => setPreviewName(name)}
              onRemove={disabled ? undefined : () => handleRemove(index)}
            />
          ))}
          {uploads.map((upload) => (
            <FileChip
              key={upload.uid}
              label={upload.name}
              isUploading
              onRemove={() => handleCancel(upload.uid)}
            />
          ))}
        </div>
      ) : null}
      {failures.map((failure) => (
        <Alert
          key={failure.uid}
          type="error"
          showIcon
          closable={{ afterClose: () => handleDismiss(failure.uid) }}
          title={failure.message}
          description={failure.name}
          className="file-upload-error"
          data-testid="file-upload-error"
        />
      ))}
      <FilePreviewDialog fileName={previewName} onClose={() => setPreviewName(null)} />
    </Flex>
  );
}
