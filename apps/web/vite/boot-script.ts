import type { IndexHtmlTransformContext, Plugin } from 'vite';
import { storageKeys } from '../src/lib/storage-keys.ts';
import { paths } from '../src/paths.ts';

/**
 * The modules a returning user's first page needs beyond the entry (src/app/route-modules.ts,
 * which imports them): every dashboard page needs antd's frame and the dashboard's; Home also its
 * page and its tables.
 */
const dashboardModules = [
  'src/app/antd-provider.tsx',
  'src/components/layout/dashboard-layout.tsx',
];
const homeModules = [
  ...dashboardModules,
  'src/features/dashboard/pages/home-page.tsx',
  'src/components/requests-table.tsx',
  'src/features/retirements/components/retirements-table.tsx',
];

type OutputBundle = NonNullable<IndexHtmlTransformContext['bundle']>;
type OutputChunk = Extract<OutputBundle[string], { type: 'chunk' }>;

/** Where index.html has the script written (its <head>, before any file it links). */
const placeholder = '<!-- boot script: vite/boot-script.ts -->';

function isChunk(output: OutputBundle[string]): output is OutputChunk {
  return output.type === 'chunk';
}

/**
 * The files of `modules`' chunks and of every chunk they import statically, as addresses, minus
 * those the entry loads already (index.html names them). A module no chunk holds fails the build:
 * the list above has fallen behind a rename.
 */
function filesOf(bundle: OutputBundle, modules: string[], base: string): string[] {
  const chunks = Object.values(bundle).filter(isChunk);
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const loaded = new Set<string>();
  const files: string[] = [];
  // A chunk and those it imports statically, once each; `found` hears of each first visit.
  const walk = (chunk: OutputChunk, found?: (file: string) => void) => {
    if (loaded.has(chunk.fileName)) return;
    loaded.add(chunk.fileName);
    found?.(chunk.fileName);
    for (const file of chunk.imports) {
      const imported = byFile.get(file);
      if (imported) walk(imported, found);
    }
  };
  for (const chunk of chunks) if (chunk.isEntry) walk(chunk);
  for (const module of modules) {
    const holder = chunks.find((chunk) =>
      chunk.moduleIds.some((id) => id.replaceAll('\\', '/').endsWith(`/apps/web/${module}`)),
    );
    if (!holder) throw new Error(`vite/boot-script.ts: no chunk holds ${module}`);
    walk(holder, (file) => files.push(file));
  }
  return files.map((file) => `${base}${file}`);
}

/**
 * The script index.html runs first, in its <head>, before the app's own files have arrived:
 * - it names the page being opened on <html> (`data-first-page`): the sign-in page for someone
 *   signed out at /, Home or another dashboard page for someone signed in (a stored token), or
 *   another page; src/app/preload.ts and main.tsx read it (which files to load, whether Home's
 *   data is asked for early, whether the sign-in page in index.html is hydrated), and styles.css
 *   hides that sign-in page on any other;
 * - for a dashboard page it starts downloading the files that page needs beyond the entry
 *   (`modulepreload`), and links antd's first-screen stylesheet, marked `data-state` "load" or
 *   "error" once it has (src/app/antd-styles.ts): the browser then fetches them together with the
 *   entry's files rather than once the entry has arrived and run, which on a phone is the better
 *   part of a second later (issue 13: Home's Largest Contentful Paint), and parses the stylesheet
 *   as it arrives rather than inside the app's start-up (Home's Total Blocking Time).
 * Inline, so it costs no request of its own; the server allows it by its hash
 * (apps/server/src/lib/security-headers.ts reads it from the built index.html).
 */
export function bootScript(): Plugin {
  let base = '/';
  return {
    name: 'imprest-boot-script',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const bundle = context.bundle;
        const antdStyles = bundle
          ? Object.values(bundle).find(
              (output) =>
                output.type === 'asset' &&
                /^assets\/antd-first-screen-.*\.css$/.test(output.fileName),
            )
          : undefined;
        const styles = antdStyles ? [`${base}${antdStyles.fileName}`] : [];
        const files = {
          home: bundle ? [...filesOf(bundle, homeModules, base), ...styles] : [],
          dashboard: bundle ? [...filesOf(bundle, dashboardModules, base), ...styles] : [],
        };
        const script = `(function () {
  var path = location.pathname.replace(/\\/+$/, '') || '/';
  var token = null;
  try {
    token = localStorage.getItem(${JSON.stringify(storageKeys.token)});
  } catch (error) {}
  var home = ${JSON.stringify(paths.dashboard.home.path)};
  var page = !token
    ? path === ${JSON.stringify(paths.signIn.path)} ? 'sign-in' : 'other'
    : path === home ? 'home' : path.indexOf(home + '/') === 0 ? 'dashboard' : 'other';
  document.documentElement.setAttribute('data-first-page', page);
  var files = ${JSON.stringify(files)}[page] || [];
  for (var i = 0; i < files.length; i++) {
    var link = document.createElement('link');
    if (/\\.css$/.test(files[i])) {
      link.rel = 'stylesheet';
      link.onload = link.onerror = function (event) {
        this.setAttribute('data-state', event.type);
      };
    } else {
      link.rel = 'modulepreload';
      link.crossOrigin = '';
    }
    link.href = files[i];
    document.head.appendChild(link);
  }
})();`;
        if (!html.includes(placeholder)) throw new Error(`index.html lacks ${placeholder}`);
        return html.replace(placeholder, `<script>\n${script}\n</script>`);
      },
    },
  };
}
