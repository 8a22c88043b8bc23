import { DownOutlined, LogoutOutlined, SettingOutlined, UserOutlined } from '@ant-design/icons';
import { Dropdown, type MenuProps } from 'antd';
import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useCurrentUser, useSession } from '../../lib/session.tsx';
import { paths } from '../../paths.ts';

function initialsOf(fullname: string): string {
  const parts = fullname.trim().split(/\s+/).filter(Boolean);
  const initials = parts.length > 1 ? `${parts[0]?.[0]}${parts.at(-1)?.[0]}` : (parts[0] ?? '?');
  return initials.slice(0, 2).toUpperCase();
}

type UserMenuProps = { showName: boolean };

/** The class of the menu's popup, to tell whether it holds the focus. */
const overlayClass = 'user-menu-overlay';

/** Avatar and name opening My profile (issue 9), Settings and Log Out (spec §2). */
export function UserMenu({ showName }: UserMenuProps) {
  const user = useCurrentUser();
  const { signOut } = useSession();
  const navigate = useNavigate();
  const [isOpen, setIsOpen] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);

  const items: MenuProps['items'] = [
    { key: 'profile', label: 'My profile', icon: <UserOutlined /> },
    { key: 'settings', label: 'Settings', icon: <SettingOutlined /> },
    { type: 'divider' },
    { key: 'logout', label: 'Log Out', icon: <LogoutOutlined />, danger: true },
  ];

  function handleClick({ key }: { key: string }) {
    if (key === 'profile') void navigate(paths.dashboard.profile.getHref());
    if (key === 'settings') void navigate(paths.dashboard.settings.getHref());
    if (key === 'logout') signOut();
  }

  function handleOpenChange(open: boolean) {
    setIsOpen(open);
    // The menu held the focus (Tab moved it in, Escape closed it): it returns to the button
    // rather than falling back to <body> with the hidden menu (WCAG 2.4.3).
    if (!open && document.activeElement?.closest(`.${overlayClass}`)) trigger.current?.focus();
  }

  return (
    <Dropdown
      menu={{ items, onClick: handleClick }}
      trigger={['click']}
      placement="bottomRight"
      open={isOpen}
      onOpenChange={handleOpenChange}
      classNames={{ root: overlayClass }}
    >
      <button
        ref={trigger}
        type="button"
        className="user-menu-trigger"
        aria-label={`Account menu of ${user.fullname}`}
        aria-haspopup="menu"
        aria-expanded={isOpen}
        data-testid="user-menu"
      >
        {/* A circle of our own: antd's Avatar measures its text after every mount to scale it,
            which forced the page's first layout into the signed-in page's first render (issue 13:
            Home's Total Blocking Time); two capitals always fit. */}
        <span className="user-menu-avatar" aria-hidden="true">
          {initialsOf(user.fullname)}
        </span>
        {showName ? <span>{user.fullname}</span> : null}
        <DownOutlined style={{ fontSize: 10 }} />
      </button>
    </Dropdown>
  );
}
