import { isFinance } from '@imprest/domain/permissions.ts';
import { Flex } from 'antd';
import { useCurrentUser } from '../../../lib/session.tsx';
import { DownloadsCard } from '../components/downloads-card.tsx';
import { ExchangeRatesCard } from '../components/exchange-rates-card.tsx';
import { NotificationsCard } from '../components/notifications-card.tsx';

/** Route /dashboard/settings: notifications, downloads and, for finance, exchange rates (spec §2). */
export function SettingsPage() {
  const user = useCurrentUser();
  return (
    <Flex vertical gap={16} style={{ maxWidth: 880 }}>
      <NotificationsCard />
      <DownloadsCard />
      {isFinance(user.role) ? <ExchangeRatesCard /> : null}
    </Flex>
  );
}
