import { isAdmin } from '@imprest/domain/permissions.ts';
import { Segmented } from 'antd';
import type { Mode } from '../../lib/storage.ts';
import { useCurrentUser, useSession } from '../../lib/session.tsx';

/** Staff/Admin switch; the Admin option exists only with admin permission (spec §2). */
export function ModeSwitcher() {
  const user = useCurrentUser();
  const { mode, setMode } = useSession();
  const options: { label: string; value: Mode }[] = [{ label: 'Staff', value: 'staff' }];
  if (isAdmin(user.role)) options.push({ label: 'Admin', value: 'admin' });

  return (
    <span data-testid="mode-switcher">
      <Segmented<Mode>
        aria-label="Mode"
        name="mode"
        options={options}
        value={mode}
        onChange={setMode}
      />
    </span>
  );
}
