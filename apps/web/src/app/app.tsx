import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { RouterProvider } from 'react-router';

type AppProps = {
  router: Parameters<typeof RouterProvider>[0]['router'];
  queryClient: QueryClient;
};

/**
 * The whole app: the browser's (main.tsx) and the build's rendering of the sign-in page
 * (prerender.tsx) are this same tree, so the page's HTML is what the browser's first render
 * makes of it, and React takes it over as it is (hydration).
 */
export function App({ router, queryClient }: AppProps) {
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>
  );
}
