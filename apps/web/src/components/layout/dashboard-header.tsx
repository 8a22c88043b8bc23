import { PlusOutlined } from '@ant-design/icons';
import type { UserResponse } from '@imprest/domain/api/users.ts';
import { newButtonFor, pageTitle, sectionOf, type Section } from '@imprest/domain/page-title.ts';
import { isAdmin, isFinance } from '@imprest/domain/permissions.ts';
import { Button, Layout } from 'antd';
import { useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useDocumentTitle } from '../../lib/document-title.ts';
import { useCurrentUser } from '../../lib/session.tsx';
import { useIsMobile } from '../../lib/use-media-query.ts';
import { ConnectionIndicator } from './connection-indicator.tsx';
import { ModeSwitcher } from './mode-switcher.tsx';
import { useTitleFocus } from './use-title-focus.ts';
import { UserMenu } from './user-menu.tsx';

/** Spec §2: New User needs admin, New Budget finance permission; a locked account gets no New Request. */
function canCreate(section: Section, user: UserResponse): boolean {
  if (section === 'users') return isAdmin(user.role);
  if (section === 'budget') return isFinance(user.role);
  return !user.is_locked;
}

/** Page title, the 'New <section>' button, the mode switcher and the user menu (spec §2). */
export function DashboardHeader() {
  const user = useCurrentUser();
  const location = useLocation();
  const navigate = useNavigate();
  const isMobile = useIsMobile();
  const newButton = newButtonFor(location.pathname);
  const titleText = pageTitle(location.pathname);
  const titleRef = useRef<HTMLHeadingElement>(null);
  useDocumentTitle(titleText);
  useTitleFocus(titleRef);

  // Focusable from code only (tabIndex -1): where the focus lands as the page changes.
  const title = (
    <h1
      ref={titleRef}
      tabIndex={-1}
      className="dashboard-title focus-landing"
      data-testid="page-title"
    >
      {titleText}
    </h1>
  );
  const newButtonElement = canCreate(sectionOf(location.pathname), user) ? (
    <Button
      type="primary"
      icon={<PlusOutlined />}
      onClick={() => void navigate(newButton.path)}
      data-testid="new-button"
    >
      {newButton.label}
    </Button>
  ) : null;

  if (isMobile) {
    return (
      <Layout.Header className="dashboard-header">
        <div className="dashboard-header-row">
          {title}
          <ConnectionIndicator />
          <UserMenu showName={false} />
        </div>
        <div className="dashboard-header-actions">
          <ModeSwitcher />
          {newButtonElement}
        </div>
      </Layout.Header>
    );
  }

  return (
    <Layout.Header className="dashboard-header">
      {title}
      <div className="dashboard-header-actions">
        <ConnectionIndicator />
        <ModeSwitcher />
        {newButtonElement}
        <UserMenu showName />
      </div>
    </Layout.Header>
  );
}
