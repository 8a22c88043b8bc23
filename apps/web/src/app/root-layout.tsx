import { Outlet } from 'react-router';
import { SessionProvider } from '../lib/session.tsx';

/** The router's root: the session needs the router to send people to / on logout. */
export function RootLayout() {
  return (
    <SessionProvider>
      <Outlet />
    </SessionProvider>
  );
}
