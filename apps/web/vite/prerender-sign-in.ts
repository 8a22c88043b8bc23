import { createServer, type Plugin, type PluginOption } from 'vite';

/** Where index.html holds the app, empty until the app renders into it. */
const emptyRoot = '<div id="root"></div>';

/**
 * Renders the sign-in page into the built index.html (src/prerender.tsx), in a root marked
 * `data-prerendered`: a visitor signed out at / sees the form once the page and its stylesheet have
 * arrived, rather than once the app's code has downloaded and run, and main.tsx hydrates it (issue
 * 13: sign-in's First Contentful Paint). Every other first page hides it until main.tsx has
 * removed it (styles.css, by the page index.html's boot script names). Build only: under `vite`
 * dev the root stays empty.
 *
 * The page is rendered by a Vite server of its own in SSR mode, with `plugins` (the app's React
 * transform and its virtual modules), since the app's modules import stylesheets and TypeScript.
 */
export function prerenderSignIn(plugins: () => PluginOption[]): Plugin {
  let root = process.cwd();
  let isBuild = false;
  return {
    name: 'imprest-prerender-sign-in',
    configResolved(config) {
      root = config.root;
      isBuild = config.command === 'build';
    },
    transformIndexHtml: {
      order: 'post',
      async handler(html) {
        if (!isBuild) return html;
        if (!html.includes(emptyRoot)) throw new Error(`index.html lacks ${emptyRoot}`);
        const server = await createServer({
          configFile: false,
          root,
          plugins: plugins(),
          logLevel: 'error',
          appType: 'custom',
          server: { middlewareMode: true, hmr: false, ws: false },
        });
        try {
          const { renderSignInPage } = (await server.ssrLoadModule('/src/prerender.tsx')) as {
            renderSignInPage: () => string;
          };
          const page = renderSignInPage();
          if (!page.includes('Sign In'))
            throw new Error('the prerendered sign-in page has no form');
          return html.replace(emptyRoot, `<div id="root" data-prerendered>${page}</div>`);
        } finally {
          await server.close();
        }
      },
    },
  };
}
