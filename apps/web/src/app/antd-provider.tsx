import { LoadingOutlined } from '@ant-design/icons';
import { ConfigProvider, type ConfigProviderProps } from 'antd';
import enGB from 'antd/locale/en_GB';
import type { ReactNode } from 'react';
import { Outlet } from 'react-router';
import { theme } from '../lib/theme.ts';

/**
 * Every form, on a Submit with errors, scrolls to the first field in error and focuses it, where
 * a screen reader reads the field and its error (WCAG 3.3.1); the focus left on Submit said
 * nothing. The field comes to the middle of the screen, with its label above it in sight (at the
 * top edge, a phone showed the box and its error but not which field it was). A form's own
 * `scrollToFirstError` replaces this (the out-of-office form's).
 */
const form: ConfigProviderProps['form'] = { scrollToFirstError: { focus: true, block: 'center' } };

/**
 * A busy button shows this icon at once and drops it at once. antd's own slides in and out, and
 * leaves the button only when its CSS transition reports its end: where none runs (a stylesheet
 * that turns transitions off for reduced motion, a starved browser that skipped the frame), it
 * stayed for good, and the button read "loading Save" though nothing was under way.
 */
const button: ConfigProviderProps['button'] = { loadingIcon: <LoadingOutlined /> };

/** antd's theme and en-GB locale (spec §9) around the pages that use antd. */
export function AntdProvider({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider locale={enGB} theme={theme} form={form} button={button}>
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
