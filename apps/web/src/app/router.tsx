import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { ComingSoon } from '../components/coming-soon.tsx';
import { FullScreenLoader } from '../components/full-screen-loader.tsx';
import { NewPasswordPage } from '../features/auth/pages/new-password-page.tsx';
import { ResetLinkPage } from '../features/auth/pages/reset-link-page.tsx';
import { ResetPasswordPage } from '../features/auth/pages/reset-password-page.tsx';
import { SignInPage } from '../features/auth/pages/sign-in-page.tsx';
import { SuccessAuthPage } from '../features/auth/pages/success-auth-page.tsx';
import { paths } from '../paths.ts';
import { RedirectIfLocked, RedirectIfSignedIn, RequireSignedIn } from './guards.tsx';
import { RootLayout } from './root-layout.tsx';

const dashboard = paths.dashboard;

/** A dashboard route (path relative to /dashboard) whose feature has not landed yet. */
function comingSoon(path: string, page: string): RouteObject {
  return { path: path.replace(/^\/dashboard\//, ''), element: <ComingSoon page={page} /> };
}

/** The routes of spec §2. The dashboard loads lazily so the sign-in page stays light. */
export function createRouter() {
  return createBrowserRouter([
    {
      element: <RootLayout />,
      hydrateFallbackElement: <FullScreenLoader />,
      children: [
        {
          element: <RedirectIfSignedIn />,
          children: [{ path: paths.signIn.path, element: <SignInPage /> }],
        },
        { path: paths.resetPassword.path, element: <ResetPasswordPage /> },
        { path: paths.reset.path, element: <ResetPasswordPage /> },
        { path: paths.resetLink.path, element: <ResetLinkPage /> },
        { path: paths.newPassword.path, element: <NewPasswordPage /> },
        { path: paths.successAuth.path, element: <SuccessAuthPage /> },
        {
          element: <RequireSignedIn />,
          children: [
            {
              path: dashboard.home.path,
              lazy: async () => {
                const { DashboardLayout } =
                  await import('../components/layout/dashboard-layout.tsx');
                return { Component: DashboardLayout };
              },
              children: [
                {
                  index: true,
                  lazy: async () => {
                    const { HomePage } = await import('../features/dashboard/pages/home-page.tsx');
                    return { Component: HomePage };
                  },
                },
                comingSoon(dashboard.requests.path, 'Requests'),
                comingSoon(dashboard.request.path, 'Request view'),
                comingSoon(dashboard.viewRequest.path, 'Request view'),
                {
                  element: <RedirectIfLocked />,
                  children: [comingSoon(dashboard.newRequest.path, 'New request')],
                },
                comingSoon(dashboard.retirements.path, 'Retirements'),
                comingSoon(dashboard.users.path, 'Users'),
                comingSoon(dashboard.newUsers.path, 'New users'),
                comingSoon(dashboard.viewUser.path, 'User view'),
                comingSoon(dashboard.budgets.path, 'Budget'),
                comingSoon(dashboard.budget.path, 'Budget details'),
                comingSoon(dashboard.newBudget.path, 'New budget'),
                comingSoon(dashboard.editBudget.path, 'Edit budget'),
                comingSoon(dashboard.settings.path, 'Settings'),
                comingSoon(dashboard.approvalMatrix.path, 'Approval matrix'),
                comingSoon(dashboard.approvalObject.path, 'Approval details'),
                { path: '*', element: <Navigate to={dashboard.home.getHref()} replace /> },
              ],
            },
          ],
        },
        { path: '*', element: <Navigate to={paths.signIn.getHref()} replace /> },
      ],
    },
  ]);
}
