import { messages } from '@imprest/domain/messages.ts';
import { Alert, App as AntApp, Layout } from 'antd';
import { Outlet } from 'react-router';
import '../../lib/dayjs-locale.ts';
import { useCurrentUser } from '../../lib/session.tsx';
import { useIsMobile } from '../../lib/use-media-query.ts';
import { DashboardHeader } from './dashboard-header.tsx';
import { MobileFooter } from './mobile-footer.tsx';
import { SideMenu } from './side-menu.tsx';

/** The signed-in frame: side menu (or mobile footer), header, locked banner and the page. */
export function DashboardLayout() {
  const user = useCurrentUser();
  const isMobile = useIsMobile();

  // antd's App (message, modal, notification) serves the dashboard's pages only, so the sign-in
  // page does not download it (issue 13).
  return (
    <AntApp>
      <Layout hasSider={!isMobile} style={{ minHeight: '100vh' }}>
        {isMobile ? null : <SideMenu />}
        <Layout style={{ minWidth: 0 }}>
          <DashboardHeader />
          {user.is_locked ? (
            <Alert
              type="error"
              banner
              showIcon
              title={messages.lockedAccount}
              data-testid="locked-banner"
            />
          ) : null}
          <Layout.Content className="dashboard-content">
            <Outlet />
          </Layout.Content>
        </Layout>
        {isMobile ? <MobileFooter /> : null}
      </Layout>
    </AntApp>
  );
}
