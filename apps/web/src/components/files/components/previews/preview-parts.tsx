import { DownloadOutlined, ZoomInOutlined, ZoomOutOutlined } from '@ant-design/icons';
import { messages } from '@imprest/domain/messages.ts';
import { Button, Flex, Progress, Result, Spin, Tooltip, Typography } from 'antd';
import type { ReactNode } from 'react';

type PreviewMessageProps = {
  status: 'info' | 'warning' | 'error';
  text: string;
  /** A second line under the title: why, or what to do. */
  detail?: string;
  extra?: ReactNode;
};

/** A sentence in place of the file: not found, not supported, failed, empty, refused. */
export function PreviewMessage({ status, text, detail, extra }: PreviewMessageProps) {
  return (
    <Result
      status={status}
      title={text}
      subTitle={detail}
      extra={extra}
      style={{ padding: '24px 8px' }}
    />
  );
}

/** Spec §9 Preview: any failure but a missing link. */
export function FailedToLoad() {
  return <PreviewMessage status="error" text={messages.fileFailedToLoad} />;
}

/** A file of no bytes: nothing to show, and no parser is asked to try. */
export function EmptyFile() {
  return (
    <PreviewMessage
      status="info"
      text="This file is empty."
      detail="It has no content to show. Ask the person who attached it to upload it again."
    />
  );
}

type PreviewLoadingProps = {
  text: string;
  /** 0–100 while the size is known; a spinner alone otherwise. */
  percent?: number | null;
};

/** Progress while a file is fetched or read. */
export function PreviewLoading({ text, percent }: PreviewLoadingProps) {
  return (
    <Flex
      vertical
      align="center"
      gap={12}
      data-testid="file-preview-loading"
      className="file-preview-loading"
      aria-busy="true"
    >
      {percent == null ? (
        <Spin size="large" />
      ) : (
        <Progress type="circle" percent={Math.round(percent)} size={72} />
      )}
      <Typography.Text type="secondary">{text}</Typography.Text>
    </Flex>
  );
}

type DownloadButtonProps = {
  url: string;
  fileName: string;
  type?: 'primary' | 'default';
  size?: 'small' | 'middle';
  label?: string;
};

/**
 * A link that saves the file. `download` names it when the link shares the app's origin (the
 * local store, a blob: of a ZIP entry); S3 is another origin, where the browser opens the file in
 * a new tab instead.
 */
export function DownloadButton({
  url,
  fileName,
  type = 'default',
  size = 'middle',
  label = 'Download',
}: DownloadButtonProps) {
  return (
    <Button
      type={type}
      size={size}
      icon={<DownloadOutlined />}
      href={url}
      download={fileName}
      target="_blank"
      rel="noopener noreferrer"
    >
      {label}
    </Button>
  );
}

type ZoomControlsProps = {
  /** The zoom factors offered, smallest first. */
  steps: readonly number[];
  index: number;
  onChange: (index: number) => void;
  testId?: string;
};

/** Zoom out, the zoom in percent, zoom in: the toolbar part images and PDFs share. */
export function ZoomControls({ steps, index, onChange, testId }: ZoomControlsProps) {
  return (
    <>
      <Tooltip title="Zoom out">
        <Button
          icon={<ZoomOutOutlined />}
          aria-label="Zoom out"
          disabled={index === 0}
          onClick={() => onChange(Math.max(0, index - 1))}
        />
      </Tooltip>
      <Typography.Text className="preview-toolbar-value" data-testid={testId}>
        {Math.round((steps[index] ?? 1) * 100)}%
      </Typography.Text>
      <Tooltip title="Zoom in">
        <Button
          icon={<ZoomInOutlined />}
          aria-label="Zoom in"
          disabled={index === steps.length - 1}
          onClick={() => onChange(Math.min(steps.length - 1, index + 1))}
        />
      </Tooltip>
    </>
  );
}
