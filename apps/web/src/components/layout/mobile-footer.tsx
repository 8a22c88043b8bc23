import { NavLink } from 'react-router';
import { useCurrentUser } from '../../lib/session.tsx';
import { paths } from '../../paths.ts';
import { navItemsFor } from './nav-items.tsx';

/** Below 768 px the side menu becomes this fixed footer, without Retirements (spec §2). */
export function MobileFooter() {
  const user = useCurrentUser();
  return (
    <nav className="mobile-footer" aria-label="Footer menu" data-testid="mobile-footer">
      {navItemsFor(user.role, 'footer').map((item) => (
        <NavLink
          key={item.key}
          to={item.href}
          end={item.href === paths.dashboard.home.getHref()}
          className={({ isActive }) =>
            isActive ? 'mobile-footer-link active' : 'mobile-footer-link'
          }
        >
          {item.icon}
          <span>{item.label}</span>
        </NavLink>
      ))}
    </nav>
  );
}
