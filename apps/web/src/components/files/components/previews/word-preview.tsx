import DOMPurify from 'dompurify';
import { useMemo } from 'react';
import { PreviewMessage } from './preview-parts.tsx';
import { useWorkerResult, workerStateMessage } from './use-worker-result.tsx';
import type { WordResult } from './word.worker.ts';

/** Images a document may show: its own, embedded as data: addresses. Nothing is fetched. */
const embeddedImage = /^data:image\/(png|jpe?g|gif|webp|bmp);base64,/i;

/**
 * The document's HTML made safe to put in the page: no script, no event handler, no style sheet,
 * no form, no frame (DOMPurify's HTML profile), images only from the document itself, links open
 * elsewhere without a referrer. The policy (script-src 'self', img-src without other hosts) stands
 * behind it.
 */
function sanitize(html: string): string {
  const purifier = DOMPurify();
  purifier.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'IMG') {
      const source = node.getAttribute('src') ?? '';
      if (!embeddedImage.test(source)) {
        node.removeAttribute('src');
        node.setAttribute('alt', 'An image from outside the document, not loaded');
      }
    }
    if (node.tagName === 'A') {
      const href = node.getAttribute('href') ?? '';
      if (/^(https?:|mailto:)/i.test(href)) {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer');
      } else if (!href.startsWith('#')) {
        node.removeAttribute('href');
      }
    }
  });
  return purifier.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object'],
    FORBID_ATTR: ['style', 'srcset', 'background', 'poster', 'formaction'],
  });
}

/** A Word document (.docx) converted in the browser to plain, sanitised HTML (issue 12). */
export function WordPreview({ bytes }: { bytes: Uint8Array }) {
  const state = useWorkerResult<WordResult>(
    () => new Worker(new URL('./word.worker.ts', import.meta.url), { type: 'module' }),
    { bytes },
    bytes,
  );
  const html = useMemo(
    () => (state.status === 'ready' ? sanitize(state.result.html) : ''),
    [state],
  );
  if (state.status !== 'ready') return workerStateMessage(state, 'document');
  return html.trim() === '' ? (
    <PreviewMessage status="info" text="This document has no text to show." />
  ) : (
    <div
      className="preview-stage preview-document"
      data-testid="word-document"
      // Sanitised above: DOMPurify's HTML profile, embedded images only.
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
