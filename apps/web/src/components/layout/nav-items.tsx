import {
  AuditOutlined,
  FileTextOutlined,
  HomeOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
  TeamOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import type { Role } from '@imprest/domain/enums.ts';
import { isAdmin, isFinance, isSuperAdmin } from '@imprest/domain/permissions.ts';
import type { ReactNode } from 'react';
import { paths } from '../../paths.ts';

export type NavItem = {
  key: string;
  label: string;
  href: string;
  icon: ReactNode;
  /** Spec §2: the mobile footer has every item except Retirements. */
  isInFooter: boolean;
  isVisibleTo: (role: Role) => boolean;
};

function everyone(): boolean {
  return true;
}

/** The side menu, in the order of spec §2. */
const navItems: NavItem[] = [
  {
    key: 'dashboard',
    label: 'Dashboard',
    href: paths.dashboard.home.getHref(),
    icon: <HomeOutlined />,
    isInFooter: true,
    isVisibleTo: everyone,
  },
  {
    key: 'requests',
    label: 'Requests',
    href: paths.dashboard.requests.getHref(),
    icon: <FileTextOutlined />,
    isInFooter: true,
    isVisibleTo: everyone,
  },
  {
    key: 'retirements',
    label: 'Retirements',
    href: paths.dashboard.retirements.getHref(),
    icon: <AuditOutlined />,
    isInFooter: false,
    isVisibleTo: everyone,
  },
  {
    key: 'users',
    label: 'Users',
    href: paths.dashboard.users.getHref(),
    icon: <TeamOutlined />,
    isInFooter: true,
    isVisibleTo: isAdmin,
  },
  {
    key: 'budget',
    label: 'Budget',
    href: paths.dashboard.budgets.getHref(),
    icon: <WalletOutlined />,
    isInFooter: true,
    isVisibleTo: isFinance,
  },
  {
    // Issue 15: the audit trail is the director's; in the footer too, which spec §2 gives every
    // item but Retirements, so a director on a phone reaches it without typing its address.
    key: 'audit',
    label: 'Audit',
    href: paths.dashboard.audit.getHref(),
    icon: <SafetyCertificateOutlined />,
    isInFooter: true,
    isVisibleTo: isSuperAdmin,
  },
  {
    key: 'settings',
    label: 'Settings',
    href: paths.dashboard.settings.getHref(),
    icon: <SettingOutlined />,
    isInFooter: true,
    isVisibleTo: everyone,
  },
];

/** The menu items a role may see (spec §2: Users needs admin, Budget needs finance permission). */
export function navItemsFor(role: Role, place: 'side' | 'footer'): NavItem[] {
  return navItems.filter((item) => item.isVisibleTo(role) && (place === 'side' || item.isInFooter));
}

const keyBySegment: Record<string, string> = {
  '': 'dashboard',
  requests: 'requests',
  'new-requests': 'requests',
  'view-request': 'requests',
  retirements: 'retirements',
  users: 'users',
  'new-users': 'users',
  'view-user': 'users',
  budget: 'budget',
  'new-budget': 'budget',
  'edit-budget': 'budget',
  settings: 'settings',
  audit: 'audit',
};

/** The menu item a dashboard path belongs to, if any. */
export function activeNavKey(pathname: string): string | undefined {
  const segment = pathname.replace(/^\/dashboard\/?/, '').split('/')[0] ?? '';
  return keyBySegment[segment];
}
