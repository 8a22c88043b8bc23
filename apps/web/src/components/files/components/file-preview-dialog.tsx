import { contentTypeOf, fileExtension, previewerOf } from '@imprest/domain/files.ts';
import { messages } from '@imprest/domain/messages.ts';
import { displayFileName } from '@imprest/domain/requests.ts';
import { Button, Flex, Modal } from 'antd';
import { Component, lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { isApiError } from '../../../lib/api-client.ts';
import { useFileLink } from '../api/get-presigned-get-url.ts';
import {
  DownloadButton,
  EmptyFile,
  FailedToLoad,
  PreviewLoading,
  PreviewMessage,
} from './previews/preview-parts.tsx';
import { useFileBytes } from './previews/use-file-bytes.ts';
import './files.css';

// Each previewer and its libraries is a chunk of its own, fetched the first time a file of its
// kind is opened (issue 12: none of them is in the first download of the app).
const ImagePreview = lazy(() =>
  import('./previews/image-preview.tsx').then((module) => ({ default: module.ImagePreview })),
);
const PdfPreview = lazy(() =>
  import('./previews/pdf-preview.tsx').then((module) => ({ default: module.PdfPreview })),
);
const WordPreview = lazy(() =>
  import('./previews/word-preview.tsx').then((module) => ({ default: module.WordPreview })),
);
const SheetPreview = lazy(() =>
  import('./previews/sheet-preview.tsx').then((module) => ({ default: module.SheetPreview })),
);
const ZipPreview = lazy(() =>
  import('./previews/zip-preview.tsx').then((module) => ({ default: module.ZipPreview })),
);

type FilePreviewDialogProps = {
  /** The stored name of the file to show; null closes the dialog. */
  fileName: string | null;
  onClose: () => void;
};

/**
 * The file preview dialog (spec §2 Shared widgets, §9 Preview; issue 12): images, PDFs, Word
 * documents, spreadsheets and ZIP archives are shown in the page, each by a previewer loaded when
 * first needed; the binary Office formats of before 2007 offer a download and say why.
 */
export function FilePreviewDialog({ fileName, onClose }: FilePreviewDialogProps) {
  // The last file stays in the dialog while it closes.
  const [shownName, setShownName] = useState(fileName);
  if (fileName && fileName !== shownName) setShownName(fileName);

  const previewer = shownName ? previewerOf(shownName) : 'unsupported';
  const link = useFileLink(fileName && previewer !== 'unsupported' ? fileName : null);
  const title = shownName ? displayFileName(shownName) : '';
  // A download that cannot be shown has its button in the dialog's body.
  const downloadUrl = previewer === 'download' ? undefined : link.data;

  return (
    <Modal
      open={Boolean(fileName)}
      onCancel={onClose}
      title={<span className="file-preview-title">{title}</span>}
      width={960}
      centered
      destroyOnHidden
      className="file-preview-modal"
      footer={
        <Flex gap={8} justify="flex-end" wrap>
          {downloadUrl ? <DownloadButton url={downloadUrl} fileName={title} /> : null}
          <Button type="primary" onClick={onClose}>
            Close
          </Button>
        </Flex>
      }
    >
      <div className="file-preview-body" data-testid="file-preview">
        {shownName ? (
          <PreviewContent
            key={shownName}
            fileName={title}
            url={link.data}
            isLoading={previewer !== 'unsupported' && link.isPending}
            error={link.error}
          />
        ) : null}
      </div>
    </Modal>
  );
}

type PreviewContentProps = {
  /** The display name: its extension chooses the previewer. */
  fileName: string;
  url: string | undefined;
  isLoading: boolean;
  error: Error | null;
};

function PreviewContent({ fileName, url, isLoading, error }: PreviewContentProps) {
  // The link is taken once: its renewal must not reload a document being read.
  const [shownUrl, setShownUrl] = useState(url);
  if (url && !shownUrl) setShownUrl(url);
  const previewer = previewerOf(fileName);

  if (previewer === 'unsupported') {
    return <PreviewMessage status="warning" text={messages.fileExtensionNotSupported} />;
  }
  if (error && !shownUrl) {
    return isApiError(error, 404) ? (
      <PreviewMessage status="warning" text={messages.fileNotFound} />
    ) : (
      <FailedToLoad />
    );
  }
  if (isLoading || !shownUrl) return <PreviewLoading text="Loading…" />;

  switch (previewer) {
    case 'image':
      return (
        <Previewer>
          <ImagePreview src={shownUrl} fileName={fileName} />
        </Previewer>
      );
    case 'download':
      return <LegacyOffice fileName={fileName} url={url ?? shownUrl} />;
    default:
      return <FetchedPreview fileName={fileName} url={shownUrl} />;
  }
}

/** Fetches the file with a progress ring, then shows it from its bytes. */
function FetchedPreview({ fileName, url }: { fileName: string; url: string }) {
  const file = useFileBytes(url);
  if (file.status === 'loading') {
    return <PreviewLoading text="Downloading the file…" percent={file.percent} />;
  }
  if (file.status === 'error') {
    return file.isNotFound ? (
      <PreviewMessage status="warning" text={messages.fileNotFound} />
    ) : (
      <FailedToLoad />
    );
  }
  return <PreviewOfBytes fileName={fileName} bytes={file.bytes} />;
}

type PreviewOfBytesProps = { fileName: string; bytes: Uint8Array };

/** The previewer of a file in hand: a fetched attachment, or an entry of a ZIP archive. */
function PreviewOfBytes({ fileName, bytes }: PreviewOfBytesProps) {
  const previewer = previewerOf(fileName);
  if (previewer === 'unsupported') {
    return <PreviewMessage status="warning" text={messages.fileExtensionNotSupported} />;
  }
  if (bytes.length === 0) return <EmptyFile />;
  switch (previewer) {
    case 'image':
      return <ImageOfBytes fileName={fileName} bytes={bytes} />;
    case 'pdf':
      return (
        <Previewer>
          <PdfPreview fileName={fileName} bytes={bytes} />
        </Previewer>
      );
    case 'word':
      return (
        <Previewer>
          <WordPreview bytes={bytes} />
        </Previewer>
      );
    case 'sheet':
      return (
        <Previewer>
          <SheetPreview fileName={fileName} bytes={bytes} />
        </Previewer>
      );
    case 'zip':
      return (
        <Previewer>
          <ZipPreview
            bytes={bytes}
            renderEntry={(name, entryBytes) => (
              <PreviewOfBytes fileName={name} bytes={entryBytes} />
            )}
          />
        </Previewer>
      );
    case 'download':
      return <LegacyOfBytes fileName={fileName} bytes={bytes} />;
  }
}

/** A blob: address of bytes in hand, revoked when the previewer goes. */
export function useObjectUrl(bytes: Uint8Array, type: string): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    const made = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type }));
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [bytes, type]);
  return url;
}

function ImageOfBytes({ fileName, bytes }: PreviewOfBytesProps) {
  const url = useObjectUrl(bytes, contentTypeOf(fileName));
  if (!url) return <PreviewLoading text="Loading…" />;
  return (
    <Previewer>
      <ImagePreview src={url} fileName={fileName} />
    </Previewer>
  );
}

function LegacyOfBytes({ fileName, bytes }: PreviewOfBytesProps) {
  const url = useObjectUrl(bytes, contentTypeOf(fileName));
  return url ? <LegacyOffice fileName={fileName} url={url} /> : null;
}

/** Why a .doc or .xls is not shown (docs/decisions/0015), and its download. */
function LegacyOffice({ fileName, url }: { fileName: string; url: string }) {
  const extension = fileExtension(fileName);
  const text =
    extension === 'doc'
      ? "Word 97–2003 documents (.doc) can't be shown in the browser."
      : extension === 'xls'
        ? "Excel 97–2003 workbooks (.xls) can't be shown in the browser."
        : "This document can't be shown in the browser.";
  return (
    <PreviewMessage
      status="info"
      text={text}
      detail="Download it to open it in Word, Excel or LibreOffice."
      extra={<DownloadButton url={url} fileName={fileName} type="primary" />}
    />
  );
}

/** A previewer's chunk while it loads, and 'Failed to load content' when it cannot be had. */
function Previewer({ children }: { children: ReactNode }) {
  return (
    <PreviewErrorBoundary>
      <Suspense fallback={<PreviewLoading text="Opening the viewer…" />}>{children}</Suspense>
    </PreviewErrorBoundary>
  );
}

type BoundaryState = { hasFailed: boolean };

/** A previewer that throws (its chunk did not load, a parser crashed) fails alone. */
class PreviewErrorBoundary extends Component<{ children: ReactNode }, BoundaryState> {
  state: BoundaryState = { hasFailed: false };

  static getDerivedStateFromError(): BoundaryState {
    return { hasFailed: true };
  }

  render() {
    return this.state.hasFailed ? <FailedToLoad /> : this.props.children;
  }
}
