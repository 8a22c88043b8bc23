import { DownloadOutlined } from '@ant-design/icons';
import { previewKind, type PreviewKind } from '@imprest/domain/files.ts';
import { messages } from '@imprest/domain/messages.ts';
import { displayFileName } from '@imprest/domain/requests.ts';
import { Button, Flex, Modal, Result, Spin, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { isApiError } from '../../../lib/api-client.ts';
import { useFileLink } from '../api/get-presigned-get-url.ts';
import './files.css';

/** Office documents are not shown in the browser: no external office viewer (the app runs offline). */
const officeNote = 'This document cannot be shown here. Download it to open it.';

type FilePreviewDialogProps = {
  /** The stored name of the file to show; null closes the dialog. */
  fileName: string | null;
  onClose: () => void;
};

/**
 * The file preview dialog (spec §2 Shared widgets, §9 Preview): images and PDFs are shown, office
 * documents and ZIP archives offer a download, other files say the extension is not supported.
 */
export function FilePreviewDialog({ fileName, onClose }: FilePreviewDialogProps) {
  // The last file stays in the dialog while it closes.
  const [shownName, setShownName] = useState(fileName);
  if (fileName && fileName !== shownName) setShownName(fileName);

  const kind: PreviewKind = shownName ? previewKind(shownName) : 'unsupported';
  const link = useFileLink(fileName && kind !== 'unsupported' ? fileName : null);
  const title = shownName ? displayFileName(shownName) : '';
  // Office files and ZIP archives have their Download button in the dialog's body.
  const downloadUrl = kind === 'image' || kind === 'pdf' ? link.data : undefined;

  return (
    <Modal
      open={Boolean(fileName)}
      onCancel={onClose}
      title={<span className="file-preview-title">{title}</span>}
      width={880}
      centered
      destroyOnHidden
      footer={
        <Flex gap={8} justify="flex-end" wrap>
          {downloadUrl ? (
            <DownloadButton url={downloadUrl} fileName={title} type="default" />
          ) : null}
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
            kind={kind}
            title={title}
            url={link.data}
            isLoading={kind !== 'unsupported' && link.isPending}
            error={link.error}
          />
        ) : null}
      </div>
    </Modal>
  );
}

type PreviewContentProps = {
  kind: PreviewKind;
  title: string;
  url: string | undefined;
  isLoading: boolean;
  error: Error | null;
};

function PreviewContent({ kind, title, url, isLoading, error }: PreviewContentProps) {
  // The link is taken once: its renewal must not reload a document being read.
  const [shownUrl, setShownUrl] = useState(url);
  if (url && !shownUrl) setShownUrl(url);
  const [hasFailed, setHasFailed] = useState(false);

  if (kind === 'unsupported') {
    return <PreviewMessage status="warning" text={messages.fileExtensionNotSupported} />;
  }
  if (error && !shownUrl) {
    return isApiError(error, 404) ? (
      <PreviewMessage status="warning" text={messages.fileNotFound} />
    ) : (
      <PreviewMessage status="error" text={messages.fileFailedToLoad} />
    );
  }
  if (isLoading || !shownUrl) {
    return (
      <Flex vertical align="center" gap={12} data-testid="file-preview-loading">
        <Spin size="large" />
        <Typography.Text type="secondary">Loading…</Typography.Text>
      </Flex>
    );
  }
  if (hasFailed) return <PreviewMessage status="error" text={messages.fileFailedToLoad} />;

  switch (kind) {
    case 'image':
      return (
        <img
          className="file-preview-image"
          src={shownUrl}
          alt={title}
          onError={() => setHasFailed(true)}
        />
      );
    case 'pdf':
      return <iframe className="file-preview-frame" src={shownUrl} title={title} />;
    case 'office':
      return (
        <PreviewMessage
          status="info"
          text={officeNote}
          extra={<DownloadButton url={url ?? shownUrl} fileName={title} type="primary" />}
        />
      );
    case 'zip':
      return (
        <PreviewMessage
          status="info"
          text={messages.zipPreview}
          extra={<DownloadButton url={url ?? shownUrl} fileName={title} type="primary" />}
        />
      );
  }
}

type PreviewMessageProps = {
  status: 'info' | 'warning' | 'error';
  text: string;
  extra?: ReactNode;
};

function PreviewMessage({ status, text, extra }: PreviewMessageProps) {
  return <Result status={status} title={text} extra={extra} style={{ padding: '24px 8px' }} />;
}

type DownloadButtonProps = { url: string; fileName: string; type: 'primary' | 'default' };

/**
 * A link that saves the file. `download` names it when the store shares the app's origin; S3 is
 * another origin, where the browser opens the file in a new tab instead.
 */
function DownloadButton({ url, fileName, type }: DownloadButtonProps) {
  return (
    <Button
      type={type}
      icon={<DownloadOutlined />}
      href={url}
      download={fileName}
      target="_blank"
      rel="noopener noreferrer"
    >
      Download
    </Button>
  );
}
