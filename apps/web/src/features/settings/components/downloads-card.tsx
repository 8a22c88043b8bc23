import { DownloadOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Flex, Typography } from 'antd';
import { useCurrentUser, useSession } from '../../../lib/session.tsx';
import { firstClickOnly } from '../../../lib/first-click.ts';
import { useOneAtATime } from '../../../lib/use-one-at-a-time.ts';
import { useDownloadRequests } from '../api/download-requests.ts';
import { useDownloadRetirements } from '../api/download-retirements.ts';
import { downloadFailed } from '../../../lib/api-download.ts';

/** Spec §8: a download that failed. */

/** Spec §2 Settings: Download Requests and Download Retirements as spreadsheets. */
export function DownloadsCard() {
  const user = useCurrentUser();
  const { mode } = useSession();
  const requests = useDownloadRequests();
  const retirements = useDownloadRetirements();
  const downloadRequests = useOneAtATime(requests);
  const downloadRetirements = useOneAtATime(retirements);
  // Decisions §8: `user` downloads your own (staff mode), your role all you may see (admin mode).
  const input = {
    mode: mode === 'admin' ? user.role : 'user',
    userId: user.id,
    fullname: user.fullname,
  };
  const error = requests.error ?? retirements.error;

  return (
    <Card title="Downloads" size="small">
      <Flex vertical gap={12}>
        <Typography.Text type="secondary">
          {mode === 'admin'
            ? 'Spreadsheets of every request and retirement you can see.'
            : 'Spreadsheets of your own requests and retirements.'}
        </Typography.Text>
        <Flex gap={12} wrap>
          <Button
            icon={<DownloadOutlined />}
            loading={requests.isPending}
            onClick={firstClickOnly(() => {
              retirements.reset();
              downloadRequests(input);
            })}
          >
            Download Requests
          </Button>
          <Button
            icon={<DownloadOutlined />}
            loading={retirements.isPending}
            onClick={firstClickOnly(() => {
              requests.reset();
              downloadRetirements(input);
            })}
          >
            Download Retirements
          </Button>
        </Flex>
        {error ? (
          <Alert
            type="error"
            showIcon
            title={downloadFailed}
            description={error.message}
            data-testid="download-error"
          />
        ) : null}
      </Flex>
    </Card>
  );
}
