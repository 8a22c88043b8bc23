import { Alert, Button, Flex } from 'antd';
import { useOneAtATime } from '../../../lib/use-one-at-a-time.ts';
import { useAttachRetirement } from '../api/attach-retirement.ts';

type RequestRetirementButtonProps = { requestId: string; onRequested: () => void };

/** Spec §2: finance starts the retirement of an approved request without one. */
export function RequestRetirementButton({ requestId, onRequested }: RequestRetirementButtonProps) {
  const attach = useAttachRetirement({ onAttached: onRequested });
  const requestRetirement = useOneAtATime(attach);
  return (
    <Flex vertical gap={8} className="no-print">
      {attach.isError ? (
        <Alert
          type="error"
          showIcon
          data-testid="retirement-error"
          title="The retirement could not be requested."
          description={attach.error.message}
        />
      ) : null}
      <div>
        <Button
          type="primary"
          loading={attach.isPending}
          onClick={() => requestRetirement(requestId)}
        >
          Request Retirement
        </Button>
      </div>
    </Flex>
  );
}
