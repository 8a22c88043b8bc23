import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { FullScreenLoader } from '../components/full-screen-loader.tsx';
import { SignInPage } from '../features/auth/pages/sign-in-page.tsx';
import { paths } from '../paths.ts';
import { RedirectIfLocked, RedirectIfSignedIn, RequireSignedIn } from './guards.tsx';
import { RootLayout } from './root-layout.tsx';
import { RouteError } from './route-error.tsx';
import { routeModules } from './route-modules.ts';

const dashboard = paths.dashboard;

/** A dashboard path relative to /dashboard, as its child routes need it. */
function relative(path: string): string {
  return path.replace(/^\/dashboard\//, '');
}

/**
 * The routes of spec §2. Every page but sign-in loads lazily so the sign-in page stays light
 * (issue 13: its initial JavaScript has a budget, e2e/tests/bundle.spec.ts).
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    hydrateFallbackElement: <FullScreenLoader />,
    errorElement: <RouteError />,
    children: [
      {
        element: <RedirectIfSignedIn />,
        children: [{ path: paths.signIn.path, element: <SignInPage /> }],
      },
      {
        lazy: async () => {
          const { AntdLayout } = await routeModules.antd();
          return { Component: AntdLayout };
        },
        children: [
          {
            path: paths.resetPassword.path,
            lazy: async () => {
              const { ResetPasswordPage } =
                await import('../features/auth/pages/reset-password-page.tsx');
              return { Component: ResetPasswordPage };
            },
          },
          {
            path: paths.reset.path,
            lazy: async () => {
              const { ResetPasswordPage } =
                await import('../features/auth/pages/reset-password-page.tsx');
              return { Component: ResetPasswordPage };
            },
          },
          {
            path: paths.resetLink.path,
            lazy: async () => {
              const { ResetLinkPage } = await import('../features/auth/pages/reset-link-page.tsx');
              return { Component: ResetLinkPage };
            },
          },
          {
            path: paths.newPassword.path,
            lazy: async () => {
              const { NewPasswordPage } =
                await import('../features/auth/pages/new-password-page.tsx');
              return { Component: NewPasswordPage };
            },
          },
          {
            path: paths.successAuth.path,
            lazy: async () => {
              const { SuccessAuthPage } =
                await import('../features/auth/pages/success-auth-page.tsx');
              return { Component: SuccessAuthPage };
            },
          },
          {
            element: <RequireSignedIn />,
            children: [
              {
                path: dashboard.home.path,
                lazy: async () => {
                  const { DashboardLayout } = await routeModules.dashboardLayout();
                  return { Component: DashboardLayout };
                },
                children: [
                  {
                    index: true,
                    lazy: async () => {
                      // Home's tables, which the page loads lazily, download beside the page: a
                      // table fetched only as its list appears fails the page if the network
                      // drops meanwhile.
                      routeModules.requestsTable().catch(() => undefined);
                      routeModules.retirementsTable().catch(() => undefined);
                      const { HomePage } = await routeModules.home();
                      return { Component: HomePage };
                    },
                  },
                  {
                    path: relative(dashboard.requests.path),
                    lazy: async () => {
                      const { RequestsPage } =
                        await import('../features/requests/pages/requests-page.tsx');
                      return { Component: RequestsPage };
                    },
                  },
                  {
                    path: relative(dashboard.request.path),
                    lazy: async () => {
                      const { RequestViewPage } =
                        await import('../features/requests/pages/request-view-page.tsx');
                      return { Component: RequestViewPage };
                    },
                  },
                  {
                    path: relative(dashboard.viewRequest.path),
                    lazy: async () => {
                      const { RequestViewPage } =
                        await import('../features/requests/pages/request-view-page.tsx');
                      return { Component: RequestViewPage };
                    },
                  },
                  {
                    element: <RedirectIfLocked />,
                    children: [
                      {
                        path: relative(dashboard.newRequest.path),
                        lazy: async () => {
                          const { NewRequestPage } =
                            await import('../features/requests/pages/new-request-page.tsx');
                          return { Component: NewRequestPage };
                        },
                      },
                    ],
                  },
                  {
                    path: relative(dashboard.retirements.path),
                    lazy: async () => {
                      const { RetirementsPage } =
                        await import('../features/retirements/pages/retirements-page.tsx');
                      return { Component: RetirementsPage };
                    },
                  },
                  {
                    path: relative(dashboard.retirement.path),
                    lazy: async () => {
                      const { RetirementFormPage } =
                        await import('../features/retirements/pages/retirement-form-page.tsx');
                      return { Component: RetirementFormPage };
                    },
                  },
                  {
                    path: relative(dashboard.users.path),
                    lazy: async () => {
                      const { UsersPage } = await import('../features/users/pages/users-page.tsx');
                      return { Component: UsersPage };
                    },
                  },
                  {
                    path: relative(dashboard.newUsers.path),
                    lazy: async () => {
                      const { NewUsersPage } =
                        await import('../features/users/pages/new-users-page.tsx');
                      return { Component: NewUsersPage };
                    },
                  },
                  {
                    path: relative(dashboard.viewUser.path),
                    lazy: async () => {
                      const { UserViewPage } =
                        await import('../features/users/pages/user-view-page.tsx');
                      return { Component: UserViewPage };
                    },
                  },
                  {
                    path: relative(dashboard.profile.path),
                    lazy: async () => {
                      const { ProfilePage } =
                        await import('../features/users/pages/profile-page.tsx');
                      return { Component: ProfilePage };
                    },
                  },
                  {
                    path: relative(dashboard.budgets.path),
                    lazy: async () => {
                      const { BudgetListPage } =
                        await import('../features/budgets/pages/budget-list-page.tsx');
                      return { Component: BudgetListPage };
                    },
                  },
                  {
                    path: relative(dashboard.budget.path),
                    lazy: async () => {
                      const { BudgetDetailPage } =
                        await import('../features/budgets/pages/budget-detail-page.tsx');
                      return { Component: BudgetDetailPage };
                    },
                  },
                  {
                    path: relative(dashboard.newBudget.path),
                    lazy: async () => {
                      const { NewBudgetPage } =
                        await import('../features/budgets/pages/new-budget-page.tsx');
                      return { Component: NewBudgetPage };
                    },
                  },
                  {
                    path: relative(dashboard.editBudget.path),
                    lazy: async () => {
                      const { EditBudgetPage } =
                        await import('../features/budgets/pages/edit-budget-page.tsx');
                      return { Component: EditBudgetPage };
                    },
                  },
                  {
                    path: relative(dashboard.settings.path),
                    lazy: async () => {
                      const { SettingsPage } =
                        await import('../features/settings/pages/settings-page.tsx');
                      return { Component: SettingsPage };
                    },
                  },
                  {
                    path: relative(dashboard.audit.path),
                    lazy: async () => {
                      const { AuditPage } = await import('../features/audit/pages/audit-page.tsx');
                      return { Component: AuditPage };
                    },
                  },
                  {
                    path: relative(dashboard.approvalMatrix.path),
                    lazy: async () => {
                      const { ApprovalMatrixPage } =
                        await import('../features/approval-matrix/pages/approval-matrix-page.tsx');
                      return { Component: ApprovalMatrixPage };
                    },
                  },
                  {
                    path: relative(dashboard.approvalObject.path),
                    lazy: async () => {
                      const { ApprovalObjectPage } =
                        await import('../features/approval-matrix/pages/approval-object-page.tsx');
                      return { Component: ApprovalObjectPage };
                    },
                  },
                  { path: '*', element: <Navigate to={dashboard.home.getHref()} replace /> },
                ],
              },
            ],
          },
        ],
      },
      { path: '*', element: <Navigate to={paths.signIn.getHref()} replace /> },
    ],
  },
];

/** The app's router, on the browser's address. */
export function createRouter() {
  return createBrowserRouter(routes);
}
