import href from 'virtual:antd-first-screen-styles';

let loading: Promise<void> | undefined;

/**
 * Links antd's first-screen stylesheet (apps/web/vite/antd-first-screen-styles.ts) once, and
 * resolves when it has loaded, or failed (antd then styles everything at run time, as before).
 * antd reads which styles the file holds on its first render only, so the dashboard waits for it
 * (issue 13). The link goes before the page's own stylesheet, where antd puts the styles it
 * injects, so that styles.css keeps overriding antd as it did.
 */
export function loadAntdStyles(): Promise<void> {
  if (!href) return Promise.resolve();
  const url = href;
  loading ??= new Promise((resolve) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = url;
    link.addEventListener('load', () => resolve());
    link.addEventListener('error', () => {
      link.remove();
      resolve();
    });
    const firstStyles = document.head.querySelector('link[rel="stylesheet"], style');
    document.head.insertBefore(link, firstStyles);
  });
  return loading;
}
