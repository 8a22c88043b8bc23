import { Layout, Menu } from 'antd';
import { Link, useLocation } from 'react-router';
import { useIsNarrow } from '../../lib/use-media-query.ts';
import { useCurrentUser } from '../../lib/session.tsx';
import { paths } from '../../paths.ts';
import { Logo } from '../logo.tsx';
import { activeNavKey, navItemsFor } from './nav-items.tsx';
import { sideMenuWidth } from './sizes.ts';

/** The dashboard's side menu (tablet and up); icons only below the laptop breakpoint. */
export function SideMenu() {
  const user = useCurrentUser();
  const location = useLocation();
  const isNarrow = useIsNarrow();
  const activeKey = activeNavKey(location.pathname);

  return (
    <Layout.Sider
      theme="light"
      width={sideMenuWidth.whole}
      collapsedWidth={sideMenuWidth.iconsOnly}
      collapsed={isNarrow}
      trigger={null}
      className="dashboard-sider"
    >
      <div className="dashboard-sider-logo">
        <Link to={paths.dashboard.home.getHref()} aria-label="Imprest home">
          <Logo size={32} showName={!isNarrow} />
        </Link>
      </div>
      <nav aria-label="Main menu">
        <Menu
          mode="inline"
          selectedKeys={activeKey ? [activeKey] : []}
          style={{ borderInlineEnd: 0 }}
          items={navItemsFor(user.role, 'side').map((item) => ({
            key: item.key,
            icon: item.icon,
            label: <Link to={item.href}>{item.label}</Link>,
          }))}
        />
      </nav>
    </Layout.Sider>
  );
}
