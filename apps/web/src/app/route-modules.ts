import { loadAntdStyles } from './antd-styles.ts';

/**
 * The lazy modules of the routes a returning user lands on (app/router.tsx), in one place so that
 * app/preload.ts can fetch them ahead of the router.
 */
export const routeModules = {
  /** antd's frame, once its first-screen stylesheet has loaded (app/antd-styles.ts). */
  antd: async () => {
    const [antdProvider] = await Promise.all([import('./antd-provider.tsx'), loadAntdStyles()]);
    return antdProvider;
  },
  dashboardLayout: () => import('../components/layout/dashboard-layout.tsx'),
  home: () => import('../features/dashboard/pages/home-page.tsx'),
  /** Home's table, which the page itself loads lazily (features/dashboard/pages/home-page.tsx). */
  requestsTable: () => import('../components/requests-table.tsx'),
  /** The table of Home's retirements waiting for review (dashboard/components/pending-retirements.tsx). */
  retirementsTable: () => import('../features/retirements/components/retirements-table.tsx'),
};
