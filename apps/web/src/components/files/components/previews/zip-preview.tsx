import {
  ArrowLeftOutlined,
  DownloadOutlined,
  EyeOutlined,
  FolderOutlined,
} from '@ant-design/icons';
import { previewerOf } from '@imprest/domain/files.ts';
import { Alert, Button, Flex, Typography } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import { FailedToLoad, PreviewLoading, PreviewMessage } from './preview-parts.tsx';
import { runWorker, type WorkerAnswer } from './run-worker.ts';
import type { ZipExtract, ZipListing, ZipMessage } from './zip.worker.ts';

const count = new Intl.NumberFormat('en-GB');

/** 1,234 bytes → '1.2 KB'. */
function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
}

function baseName(path: string): string {
  return path.split('/').filter(Boolean).pop() ?? path;
}

/** One call to a fresh ZIP worker; the archive is copied, the dialog keeps its bytes. */
function askZipWorker<T>(message: ZipMessage, signal?: AbortSignal): Promise<WorkerAnswer<T>> {
  return runWorker<T>(
    () => new Worker(new URL('./zip.worker.ts', import.meta.url), { type: 'module' }),
    { ...message, bytes: message.bytes.slice() },
    { signal },
  );
}

type ListState =
  { status: 'loading' } | { status: 'ready'; listing: ZipListing } | { status: 'failed' };

type Opened = { name: string; bytes: Uint8Array };

type ZipPreviewProps = {
  bytes: Uint8Array;
  /** The dialog's previewer for an entry, so an entry opens in the same dialog. */
  renderEntry: (fileName: string, bytes: Uint8Array) => ReactNode;
};

/**
 * A ZIP archive listed in the browser: names, sizes, a download of each file, and the files the
 * dialog can show open in it (issue 12). Entries past the limits are listed but not expanded.
 */
export function ZipPreview({ bytes, renderEntry }: ZipPreviewProps) {
  const [state, setState] = useState<ListState>({ status: 'loading' });
  const [opened, setOpened] = useState<Opened | null>(null);
  const [busyIndex, setBusyIndex] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    askZipWorker<ZipListing>({ action: 'list', bytes }, controller.signal).then(
      (answer) =>
        setState(answer.ok ? { status: 'ready', listing: answer.result } : { status: 'failed' }),
      () => {
        if (!controller.signal.aborted) setState({ status: 'failed' });
      },
    );
    return () => controller.abort();
  }, [bytes]);

  async function extract(index: number): Promise<Uint8Array | null> {
    setBusyIndex(index);
    setProblem(null);
    try {
      const answer = await askZipWorker<ZipExtract>({ action: 'extract', bytes, index });
      if (answer.ok) return answer.result.bytes;
      setProblem(answer.reason === 'refused' ? answer.message : 'Failed to load content');
    } catch {
      setProblem('Failed to load content');
    } finally {
      setBusyIndex(null);
    }
    return null;
  }

  async function handleOpen(index: number, name: string) {
    const entryBytes = await extract(index);
    if (entryBytes) setOpened({ name: baseName(name), bytes: entryBytes });
  }

  async function handleDownload(index: number, name: string) {
    const entryBytes = await extract(index);
    if (!entryBytes) return;
    const url = URL.createObjectURL(new Blob([entryBytes as Uint8Array<ArrayBuffer>]));
    const link = document.createElement('a');
    link.href = url;
    link.download = baseName(name);
    link.rel = 'noopener';
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }

  if (opened) {
    return (
      <div className="preview-frame" data-testid="zip-entry">
        <Flex className="preview-toolbar" gap={8} align="center">
          <Button icon={<ArrowLeftOutlined />} onClick={() => setOpened(null)}>
            Back to the archive
          </Button>
          <Typography.Text strong ellipsis className="preview-entry-name">
            {opened.name}
          </Typography.Text>
        </Flex>
        {renderEntry(opened.name, opened.bytes)}
      </div>
    );
  }

  switch (state.status) {
    case 'loading':
      return <PreviewLoading text="Reading the archive…" />;
    case 'failed':
      return <FailedToLoad />;
    case 'ready':
      break;
  }
  const { entries, total } = state.listing;
  const files = entries.filter((entry) => !entry.isDirectory);
  if (total === 0 || files.length === 0) {
    return <PreviewMessage status="info" text="This archive is empty." />;
  }
  const packed = files.reduce((sum, entry) => sum + entry.size, 0);

  return (
    <div className="preview-frame" data-testid="zip-listing">
      <Typography.Text type="secondary" className="preview-zip-summary">
        {count.format(files.length)} {files.length === 1 ? 'file' : 'files'}, {sizeText(packed)}{' '}
        when unpacked
        {entries.length < total
          ? ` (the first ${count.format(entries.length)} of ${count.format(total)} entries)`
          : ''}
      </Typography.Text>
      {problem ? (
        <Alert type="warning" showIcon title={problem} className="preview-sheet-note" />
      ) : null}
      <ul className="preview-stage preview-zip-list">
        {entries.map((entry) => {
          const canOpen =
            !entry.isDirectory && !entry.refusal && previewerOf(entry.name) !== 'unsupported';
          return (
            <li key={entry.index} className="preview-zip-entry" data-testid="zip-entry-row">
              <div className="preview-zip-name">
                {entry.isDirectory ? <FolderOutlined /> : null}
                <Typography.Text>{entry.name}</Typography.Text>
                {entry.refusal ? (
                  <Typography.Text type="warning" className="preview-zip-refusal">
                    {entry.refusal}
                  </Typography.Text>
                ) : null}
              </div>
              {entry.isDirectory ? null : (
                <Flex gap={4} align="center" className="preview-zip-actions">
                  <Typography.Text type="secondary" className="preview-zip-size">
                    {sizeText(entry.size)}
                  </Typography.Text>
                  {canOpen ? (
                    <Button
                      size="small"
                      icon={<EyeOutlined />}
                      loading={busyIndex === entry.index}
                      disabled={busyIndex !== null && busyIndex !== entry.index}
                      aria-label={`Open ${entry.name}`}
                      onClick={() => void handleOpen(entry.index, entry.name)}
                    >
                      Open
                    </Button>
                  ) : null}
                  <Button
                    size="small"
                    icon={<DownloadOutlined />}
                    disabled={Boolean(entry.refusal) || busyIndex !== null}
                    aria-label={`Download ${entry.name}`}
                    onClick={() => void handleDownload(entry.index, entry.name)}
                  />
                </Flex>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
