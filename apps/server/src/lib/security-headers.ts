import crypto from 'node:crypto';
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import helmet, { type HelmetOptions } from 'helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';

/**
 * The origins the browser reaches S3 at, for the file previews (images, the PDF frame) and the
 * presigned POST uploads: the bucket's virtual host, or the endpoint itself when paths name the
 * bucket. None without S3: the local store is this origin.
 */
export function s3Origins(s3: Config['s3']): string[] {
  if (!s3) return [];
  if (!s3.endpoint) return [`https://${s3.bucket}.s3.${s3.region}.amazonaws.com`];
  const endpoint = new URL(s3.endpoint);
  if (s3.forcePathStyle) return [endpoint.origin];
  return [`${endpoint.protocol}//${s3.bucket}.${endpoint.host}`];
}

/**
 * The web socket origin of the app's own address (socket.io at /socket.io). CSP level 3 lets
 * 'self' match ws:/wss: of this host already; the explicit origin keeps older browsers on web
 * sockets instead of long polling, without allowing every host as bare `ws:`/`wss:` would.
 */
function socketOrigin(appUrl: string): string {
  const url = new URL(appUrl);
  return `${url.protocol === 'https:' ? 'wss:' : 'ws:'}//${url.host}`;
}

/**
 * The hash sources of the inline scripts of the built index.html: its boot script
 * (apps/web/vite/boot-script.ts), the one script the page runs that is not a file. Read once, as
 * the app starts: `npm start` builds the web app before it starts the server. None without a
 * built web app.
 */
export function inlineScriptHashes(webDist: string): string[] {
  let html: string;
  try {
    html = fs.readFileSync(path.join(webDist, 'index.html'), 'utf8');
  } catch {
    return [];
  }
  return [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    ([, body]) =>
      `'sha256-${crypto
        .createHash('sha256')
        .update(body ?? '')
        .digest('base64')}'`,
  );
}

/**
 * The Content-Security-Policy directives of every page and response of the app; `scriptHashes`
 * names the inline scripts allowed to run (inlineScriptHashes).
 */
export function contentSecurityDirectives(
  config: Config,
  scriptHashes: readonly string[] = [],
): Record<string, string[]> {
  const s3 = s3Origins(config.s3);
  const isHttps = config.appUrl.startsWith('https://');
  return {
    'default-src': ["'self'"],
    // Files of this origin, and no inline script but index.html's boot script, by its hash (ASVS
    // 3.4.3): never 'unsafe-inline'.
    'script-src': ["'self'", ...scriptHashes],
    'script-src-attr': ["'none'"],
    // antd (CSS-in-JS) inserts <style> elements at run time and antd and recharts set style
    // attributes; a nonce cannot reach them from a static index.html. Styles cannot run code.
    'style-src': ["'self'", "'unsafe-inline'"],
    // data: for images antd draws itself (upload thumbnails) and a Word document's own pictures.
    // The image preview is an <img> of its presigned link: the local store (this origin) or S3;
    // blob: for an image opened from inside a ZIP archive, made in the page from its bytes.
    'img-src': ["'self'", 'data:', 'blob:', ...s3],
    'font-src': ["'self'"],
    // The API, socket.io, and the presigned POSTs of uploads straight to S3.
    'connect-src': ["'self'", socketOrigin(config.appUrl), ...s3],
    // The PDF preview is a frame of its presigned link: the local store or S3.
    'frame-src': ["'self'", ...s3],
    // The Workbox service worker at /sw.js and the previewers' workers (pdf.js, the Word,
    // spreadsheet and ZIP readers), all files of this origin; blob: for the inflate workers the
    // spreadsheet reader (fflate) starts for a large sheet. A worker's own script-src stays 'self'.
    'worker-src': ["'self'", 'blob:'],
    'manifest-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    ...(isHttps ? { 'upgrade-insecure-requests': [] } : {}),
  };
}

/** helmet's options: the headers of every response (ASVS 3.4). */
function helmetOptions(config: Config): HelmetOptions {
  const isHttps = config.appUrl.startsWith('https://');
  const directives = contentSecurityDirectives(config, inlineScriptHashes(config.webDist));
  return {
    contentSecurityPolicy: { useDefaults: false, directives },
    // Cross-origin isolation would need every S3 image and PDF to send CORP/CORS headers.
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    // Reset and invitation links carry their token in the query (?token=): no page of the app
    // sends its address to anyone, not even a shortened one (ASVS 3.4.5).
    referrerPolicy: { policy: 'no-referrer' },
    // Only behind HTTPS: over plain HTTP (local use, the demo) the header would be ignored, and a
    // browser that kept it would lock a development host out of HTTP.
    strictTransportSecurity: isHttps
      ? { maxAge: 31_536_000, includeSubDomains: true, preload: false }
      : false,
    xFrameOptions: { action: 'deny' },
  };
}

/**
 * The headers helmet sets with these options, worked out once: they depend on the configuration
 * alone (no nonces), so running helmet on every request, as @fastify/helmet does (it even builds
 * helmet anew each time), would only repeat this work (issue 13).
 */
export function securityHeaders(config: Config): Record<string, string> {
  const headers: Record<string, string> = {};
  const collector = {
    setHeader: (name: string, value: unknown) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: () => undefined,
  };
  let finished = false;
  helmet(helmetOptions(config))(
    {} as IncomingMessage,
    collector as unknown as ServerResponse,
    (error?: unknown) => {
      if (error) throw error instanceof Error ? error : new Error(String(error));
      finished = true;
    },
  );
  if (!finished || !headers['content-security-policy']) {
    throw new Error('helmet did not set its headers synchronously');
  }
  return headers;
}

/**
 * Security headers on every response that Fastify sends, pages, API answers, errors, 404s, static
 * files and stored files alike (ASVS 3.4): a root onRequest hook sets them on the reply before
 * any handler runs, so an error handler's answer carries them too. A route may replace one (the
 * local store's files carry a sandbox policy of their own).
 */
export function registerSecurityHeaders(app: FastifyInstance, config: Config): void {
  const headers = securityHeaders(config);
  app.addHook('onRequest', (_request, reply, done) => {
    void reply.headers(headers);
    done();
  });
}

/**
 * `Cache-Control: no-store` on every API answer (ASVS 14.3.2): they carry session tokens and
 * personal data, and a browser's disk cache on a shared computer, or a shared proxy (the API takes
 * the token in a `token` header too, which does not stop a cache as `Authorization` does), must
 * keep none of them. Registered first in the API's scope, so a 401 carries it; a route may set its
 * own (a stored file's private, short-lived caching).
 */
export function registerNoStore(api: FastifyInstance): void {
  api.addHook('onRequest', (_request, reply, done) => {
    void reply.header('cache-control', 'no-store');
    done();
  });
}
