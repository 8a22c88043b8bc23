// First: configures zod before any module builds a schema.
import './lib/zod-config.ts';
import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import enGB from 'antd/locale/en_GB';
import dayjs from 'dayjs';
import 'dayjs/locale/en-gb';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { createRouter } from './app/router.tsx';
import { createQueryClient } from './lib/query-client.ts';
import { registerServiceWorker } from './lib/service-worker.ts';
import './styles.css';

// Spec §9: dates in en-GB format, the calendar following the locale.
dayjs.locale('en-gb');

const queryClient = createQueryClient();
const router = createRouter();
const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('index.html has no #root element');

createRoot(rootElement).render(
  <StrictMode>
    <ConfigProvider
      locale={enGB}
      theme={{ token: { colorPrimary: '#1d4ed8', borderRadius: 8, fontSize: 14 } }}
    >
      <AntApp>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  </StrictMode>,
);

registerServiceWorker();
