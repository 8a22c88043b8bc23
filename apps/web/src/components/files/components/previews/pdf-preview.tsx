import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import { Button, Flex, Tooltip, Typography } from 'antd';
import {
  getDocument,
  GlobalWorkerOptions,
  type PDFDocumentProxy,
  type RenderTask,
} from 'pdfjs-dist';
// pdf.js parses in a worker of its own, served from our origin like any asset (worker-src 'self').
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { useEffect, useRef, useState } from 'react';
import { FailedToLoad, PreviewLoading, PreviewMessage, ZoomControls } from './preview-parts.tsx';
import { workerTimeoutMs } from './run-worker.ts';
import { useElementWidth } from './use-element-width.ts';

GlobalWorkerOptions.workerSrc = workerUrl;

const zoomSteps = [0.5, 0.75, 1, 1.25, 1.5, 2, 3];
/** A canvas past this many pixels is drawn at a lower density rather than exhaust a phone. */
const maxCanvasPixels = 16_000_000;

type PdfState =
  | { status: 'loading' }
  | { status: 'ready'; document: PDFDocumentProxy }
  | { status: 'password' }
  | { status: 'failed' };

type PdfPreviewProps = { fileName: string; bytes: Uint8Array };

/**
 * A PDF drawn in the page by pdf.js (issue 12: mobile browsers do not show a framed PDF, and no
 * receipt goes to an outside viewer): one page at a time, fitted to the width, with zoom and the
 * page count. No eval (the policy forbids it) and no WebAssembly.
 */
export function PdfPreview({ fileName, bytes }: PdfPreviewProps) {
  const [state, setState] = useState<PdfState>({ status: 'loading' });

  useEffect(() => {
    // pdf.js takes the buffer to its worker: it gets a copy, the dialog keeps the file.
    const task = getDocument({
      data: bytes.slice(),
      isEvalSupported: false,
      useWasm: false,
      enableXfa: false,
    });
    let isDone = false;
    task.onPassword = () => {
      isDone = true;
      setState({ status: 'password' });
      void task.destroy();
    };
    const timer = setTimeout(() => {
      if (isDone) return;
      isDone = true;
      setState({ status: 'failed' });
      void task.destroy();
    }, workerTimeoutMs);
    task.promise.then(
      (document) => {
        if (isDone) return;
        isDone = true;
        setState({ status: 'ready', document });
      },
      () => {
        if (isDone) return;
        isDone = true;
        setState({ status: 'failed' });
      },
    );
    return () => {
      clearTimeout(timer);
      isDone = true;
      void task.destroy();
    };
  }, [bytes]);

  switch (state.status) {
    case 'loading':
      return <PreviewLoading text="Reading the PDF…" />;
    case 'password':
      return (
        <PreviewMessage
          status="info"
          text="This PDF is protected by a password."
          detail="Download it to open it with its password."
        />
      );
    case 'failed':
      return <FailedToLoad />;
    case 'ready':
      return <PdfPages document={state.document} fileName={fileName} />;
  }
}

function PdfPages({ document, fileName }: { document: PDFDocumentProxy; fileName: string }) {
  const [stage, width] = useElementWidth<HTMLDivElement>();
  const canvas = useRef<HTMLCanvasElement>(null);
  const [pageNumber, setPageNumber] = useState(1);
  const [zoomIndex, setZoomIndex] = useState(zoomSteps.indexOf(1));
  const [isDrawing, setIsDrawing] = useState(true);
  const [hasFailed, setHasFailed] = useState(false);
  const zoom = zoomSteps[zoomIndex] ?? 1;
  const pageCount = document.numPages;

  useEffect(() => {
    const element = canvas.current;
    if (!element || width === 0) return;
    let task: RenderTask | null = null;
    let isCancelled = false;
    setIsDrawing(true);
    void (async () => {
      try {
        const page = await document.getPage(pageNumber);
        if (isCancelled) return;
        const scale = (width / page.getViewport({ scale: 1 }).width) * zoom;
        const viewport = page.getViewport({ scale });
        const area = viewport.width * viewport.height;
        const density = Math.min(window.devicePixelRatio || 1, Math.sqrt(maxCanvasPixels / area));
        element.width = Math.floor(viewport.width * density);
        element.height = Math.floor(viewport.height * density);
        element.style.width = `${Math.floor(viewport.width)}px`;
        element.style.height = `${Math.floor(viewport.height)}px`;
        task = page.render({
          canvas: element,
          viewport,
          transform: density === 1 ? undefined : [density, 0, 0, density, 0, 0],
        });
        await task.promise;
        if (!isCancelled) setIsDrawing(false);
      } catch (error) {
        if (isCancelled || (error as Error).name === 'RenderingCancelledException') return;
        setHasFailed(true);
      }
    })();
    return () => {
      isCancelled = true;
      task?.cancel();
    };
  }, [document, pageNumber, zoom, width]);

  if (hasFailed) return <FailedToLoad />;

  return (
    <div className="preview-frame">
      <Flex className="preview-toolbar" gap={4} align="center" wrap>
        <Tooltip title="Previous page">
          <Button
            icon={<LeftOutlined />}
            aria-label="Previous page"
            disabled={pageNumber <= 1}
            onClick={() => setPageNumber((page) => Math.max(1, page - 1))}
          />
        </Tooltip>
        <Typography.Text className="preview-toolbar-value" data-testid="pdf-page-count">
          Page {pageNumber} of {pageCount}
        </Typography.Text>
        <Tooltip title="Next page">
          <Button
            icon={<RightOutlined />}
            aria-label="Next page"
            disabled={pageNumber >= pageCount}
            onClick={() => setPageNumber((page) => Math.min(pageCount, page + 1))}
          />
        </Tooltip>
        <span className="preview-toolbar-gap" />
        <ZoomControls steps={zoomSteps} index={zoomIndex} onChange={setZoomIndex} />
      </Flex>
      <div ref={stage} className="preview-stage preview-pdf-stage">
        <canvas
          ref={canvas}
          className="preview-pdf-page"
          role="img"
          aria-label={`${fileName}, page ${pageNumber} of ${pageCount}`}
          aria-busy={isDrawing}
          data-testid="pdf-page"
        />
      </div>
    </div>
  );
}
