import href from 'virtual:antd-first-screen-styles';

let loading: Promise<void> | undefined;

/**
 * antd's first-screen stylesheet (apps/web/vite/antd-first-screen-styles.ts), linked once, and a
 * promise of its having loaded, or failed (antd then styles everything at run time, as before).
 * antd reads which styles the file holds on its first render only, so the dashboard waits for it
 * (issue 13). The link goes before the page's own stylesheet, where antd puts the styles it
 * injects, so that styles.css keeps overriding antd as it did.
 *
 * For a dashboard page opened first, index.html's boot script (vite/boot-script.ts) has linked it
 * already, in <head> before the page's stylesheet, and marks it `data-state` "load" or "error"
 * when it has: the browser then parses its 350 KB as it arrives, in a task of its own, not inside
 * the app's start-up when this link would be made (issue 13: Home's Total Blocking Time).
 */
export function loadAntdStyles(): Promise<void> {
  if (!href) return Promise.resolve();
  const url = href;
  loading ??= new Promise((resolve) => {
    const linked = document.head.querySelector<HTMLLinkElement>(
      `link[rel="stylesheet"][href="${url}"]`,
    );
    const link = linked ?? document.createElement('link');
    const failed = () => {
      link.remove();
      resolve();
    };
    if (linked?.dataset.state === 'load') return resolve();
    if (linked?.dataset.state === 'error') return failed();
    link.addEventListener('load', () => resolve());
    link.addEventListener('error', failed);
    if (linked) return;
    link.rel = 'stylesheet';
    link.href = url;
    const firstStyles = document.head.querySelector('link[rel="stylesheet"], style');
    document.head.insertBefore(link, firstStyles);
  });
  return loading;
}
