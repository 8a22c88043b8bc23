/** The address of antd's first-screen stylesheet, or null under `vite` dev (apps/web/vite.config.ts). */
declare module 'virtual:antd-first-screen-styles' {
  const href: string | null;
  export default href;
}
