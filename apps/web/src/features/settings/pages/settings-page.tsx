import { canDelegate, canDelegateForOthers } from '@imprest/domain/delegations.ts';
import { isFinance } from '@imprest/domain/permissions.ts';
import { Flex } from 'antd';
import { useCurrentUser } from '../../../lib/session.tsx';
import { DelegationsCard } from '../components/delegations-card.tsx';
import { DownloadsCard } from '../components/downloads-card.tsx';
import { ExchangeRateChangesCard } from '../components/exchange-rate-changes-card.tsx';
import { ExchangeRatesCard } from '../components/exchange-rates-card.tsx';
import { NotificationsCard } from '../components/notifications-card.tsx';
import { OutOfOfficeCard } from '../components/out-of-office-card.tsx';

/**
 * Route /dashboard/settings: notifications, for a reviewer the Out of office delegate (and for the
 * director every delegation; issue 15), downloads and, for finance, exchange rates and who changed
 * them (spec §2, docs/decisions/0013).
 */
export function SettingsPage() {
  const user = useCurrentUser();
  return (
    <Flex vertical gap={16} style={{ maxWidth: 880 }}>
      <NotificationsCard />
      {canDelegate(user.role) ? <OutOfOfficeCard /> : null}
      {canDelegateForOthers(user.role) ? <DelegationsCard /> : null}
      <DownloadsCard />
      {isFinance(user.role) ? (
        <>
          <ExchangeRatesCard />
          <ExchangeRateChangesCard />
        </>
      ) : null}
    </Flex>
  );
}
