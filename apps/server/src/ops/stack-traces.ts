import { existsSync, readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload, type SourceOrigin } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** A decoded map stays this long after its last use, so a burst of errors decodes it once. */
const keepDecodedMs = 5 * 60_000;

/**
 * A stack trace's first line, as Node writes it: an error's own `toString` (Node's errors add their
 * code, `TypeError [ERR_INVALID_ARG_VALUE]: …`), Error's for an object that is not an error.
 */
function headOf(error: Error): string {
  try {
    return error instanceof Error ? String(error) : Error.prototype.toString.call(error);
  } catch {
    return '<error>';
  }
}

/** A frame as V8 writes it, or a mark in its place should even that fail. */
function plainFrame(frame: NodeJS.CallSite): string {
  try {
    return String(frame);
  } catch {
    return '<frame>';
  }
}

/**
 * Stack traces name the TypeScript lines of the server's bundle (dist/main.js) without Node's
 * `--enable-source-maps`, which reads and keeps the source map of every module it loads, the
 * packages' in node_modules too (docs/decisions/0046). The bundle's own map beside it is decoded on
 * the first stack trace with a frame of the bundle (traces are written when read: an error logged,
 * an uncaught one printed) and let go once no trace has needed it for five minutes; such a frame
 * then names its source file, line and column. A map that cannot be read is not tried again, and
 * nothing is changed when there is none, as when the server runs from its sources.
 */
export function mapBundleStackTraces(bundleUrl: string): void {
  const bundle = fileURLToPath(bundleUrl);
  const mapFile = `${bundle}.map`;
  if (!existsSync(mapFile)) return;
  const mapUrl = pathToFileURL(mapFile);
  let decoded: SourceMap | undefined;
  let release: NodeJS.Timeout | undefined;
  let isUnreadable = false;

  function sourceMap(): SourceMap {
    if (!decoded) {
      // Marked first, so that a map that fails is read once, not for every frame of every trace.
      isUnreadable = true;
      const payload = JSON.parse(readFileSync(mapFile, 'utf8')) as SourceMapPayload;
      // The sources' text is not needed to name a line: not kept with the decoded map.
      payload.sourcesContent = [];
      payload.sources = payload.sources.map((source) => fileURLToPath(new URL(source, mapUrl)));
      decoded = new SourceMap(payload);
      isUnreadable = false;
    }
    clearTimeout(release);
    release = setTimeout(() => (decoded = undefined), keepDecodedMs).unref();
    return decoded;
  }

  function frameText(frame: NodeJS.CallSite): string {
    const text = frame.toString();
    const file = frame.getFileName();
    const line = frame.getLineNumber();
    const column = frame.getColumnNumber();
    if ((file !== bundleUrl && file !== bundle) || line === null || column === null) return text;
    if (isUnreadable) return text;
    const origin = sourceMap().findOrigin(line, column) as Partial<SourceOrigin>;
    if (!origin.fileName || origin.lineNumber === undefined || origin.columnNumber === undefined) {
      return text;
    }
    return text.replace(
      `${file}:${line}:${column}`,
      `${origin.fileName}:${origin.lineNumber}:${origin.columnNumber}`,
    );
  }

  Error.prepareStackTrace = (error: Error, frames: NodeJS.CallSite[]): string => {
    const head = headOf(error);
    try {
      return [head, ...frames.map((frame) => `    at ${frameText(frame)}`)].join('\n');
    } catch {
      // An unreadable map must not lose the trace: the bundle's own lines, as V8 writes them.
      return [head, ...frames.map((frame) => `    at ${plainFrame(frame)}`)].join('\n');
    }
  };
}
