import { ConfigProvider } from 'antd';
import enGB from 'antd/locale/en_GB';
import type { ReactNode } from 'react';
import { Outlet } from 'react-router';
import { theme } from '../lib/theme.ts';

/** antd's theme and en-GB locale (spec §9) around the pages that use antd. */
export function AntdProvider({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider locale={enGB} theme={theme}>
      {children}
    </ConfigProvider>
  );
}

/**
 * The router's frame of every page but sign-in. A lazy route of its own: the sign-in page is
 * plain HTML and CSS, so antd is not part of its first download (issue 13, bundle budget).
 */
export function AntdLayout() {
  return (
    <AntdProvider>
      <Outlet />
    </AntdProvider>
  );
}
