import { Alert, Button, Flex } from 'antd';
import { useOneAtATime } from '../../../lib/use-one-at-a-time.ts';
import { useRequestRetirementEdit } from '../api/request-retirement-edit.ts';

type ResubmitRetirementButtonProps = { retirementId: string };

/**
 * Spec §2: 'Request to Resubmit' for the owner of a rejected retirement, in the notice at the top
 * of the retirement; the answer makes it pending again, and the form turns editable with what was
 * submitted before.
 */
export function ResubmitRetirementButton({ retirementId }: ResubmitRetirementButtonProps) {
  const edit = useRequestRetirementEdit();
  const reopen = useOneAtATime(edit);
  return (
    <Flex vertical gap={8} align="flex-start">
      {edit.isError ? (
        <Alert
          type="error"
          showIcon
          title="The retirement could not be reopened."
          description={edit.error.message}
          data-testid="resubmit-error"
          style={{ alignSelf: 'stretch' }}
        />
      ) : null}
      <Button type="primary" loading={edit.isPending} onClick={() => reopen(retirementId)}>
        Request to Resubmit
      </Button>
    </Flex>
  );
}
