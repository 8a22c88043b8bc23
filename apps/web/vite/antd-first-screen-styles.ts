import { createElement as h, type ReactNode } from 'react';
import { theme } from '../src/lib/theme.ts';

/**
 * antd's styles for what the dashboard's frame and Home draw first (issue 13: Home's Total Blocking
 * Time), written at build time as one stylesheet in the format of antd's own server-side "whole
 * export" (`extractStyle` of @ant-design/cssinjs). The stylesheet ends with a rule naming every
 * style it holds (`.data-ant-cssinjs-cache-path`); antd reads it on its first render and skips
 * generating, parsing and injecting those styles in the browser, which was about a third of the
 * dashboard's first render. A component it does not list keeps being styled at run time, so a
 * missing one costs time, never its look.
 *
 * The components are those of the frame (components/layout), Home (features/dashboard) and its
 * requests table (components/requests-table.tsx), under the app's theme (src/lib/theme.ts) as
 * app/antd-provider.tsx sets it.
 */
export async function extractFirstScreenStyles(): Promise<string> {
  const [antd, { StyleProvider, createCache, extractStyle }, { renderToString }] =
    await Promise.all([import('antd'), import('@ant-design/cssinjs'), import('react-dom/server')]);
  const { App, Alert, Button, Card, Col, ConfigProvider, Dropdown, Empty, Flex } = antd;
  const { Layout, Menu, Row, Segmented, Skeleton, Spin, Statistic, Table, Tag, Tooltip } = antd;

  // Rendered in the order the dashboard renders them, the order their styles then take.
  const firstScreen: ReactNode[] = [
    h(
      Layout,
      { key: 'layout', hasSider: true },
      h(
        Layout.Sider,
        { theme: 'light' },
        h(Menu, { mode: 'inline', items: [{ key: 'home', label: 'Home' }] }),
      ),
      h(
        Layout,
        null,
        h(
          Layout.Header,
          null,
          h(Tooltip, { title: 'Live updates' }, h('span')),
          h(Segmented, { options: ['Staff'] }),
          h(Button, { type: 'primary' }, 'New'),
          h(Dropdown, { menu: { items: [] } }, h('button', { type: 'button' }, 'A')),
        ),
        h(Alert, { type: 'error', banner: true, showIcon: true, title: 'Locked' }),
        h(Layout.Content),
      ),
    ),
    h(
      Flex,
      { key: 'home', vertical: true },
      h(Row, null, h(Col, { xs: 24 }, h(Card, { size: 'small' }, h(Statistic, { value: 0 })))),
      h(Statistic, { value: 0, loading: true }),
      h(Skeleton),
      h(Spin),
      h(
        Card,
        { title: 'Recent Requests', extra: h(Button, { type: 'link' }, 'View all') },
        h(Table, {
          columns: [{ title: 'Name', dataIndex: 'name' }],
          dataSource: [{ key: 'row', name: 'Name' }],
        }),
        h(Tag, null, 'Tag'),
        h(Empty),
      ),
    ),
  ];

  const cache = createCache();
  renderToString(
    h(StyleProvider, { cache }, h(ConfigProvider, { theme }, h(App, null, ...firstScreen))),
  );
  return extractStyle(cache, { plain: true, types: ['style'] });
}
