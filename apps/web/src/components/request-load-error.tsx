import { messages } from '@imprest/domain/messages.ts';
import { Button, Card, Result } from 'antd';
import { isApiError } from '../lib/api-client.ts';
import { TryAgainButton } from './load-error.tsx';

type RequestLoadErrorProps = {
  error: Error | null;
  /** The title when the request exists but could not be loaded, e.g. a network failure. */
  failedTitle: string;
  onBack: () => void;
  /** Reads the request again after a failure (not when it is missing), e.g. the query's refetch(). */
  onRetry?: () => Promise<unknown>;
};

/**
 * A request that could not be shown: "Error! Couldn't find the request." with Go Back when it does
 * not exist or is not visible (spec §2 Request view), otherwise the failure and its reason.
 */
export function RequestLoadError({ error, failedTitle, onBack, onRetry }: RequestLoadErrorProps) {
  const isMissing = isApiError(error, 400, 403, 404);
  return (
    <Card>
      <Result
        status={isMissing ? '404' : 'error'}
        title={isMissing ? messages.requestNotFound : failedTitle}
        subTitle={isMissing ? undefined : error?.message}
        extra={[
          isMissing || !onRetry ? null : <TryAgainButton key="retry" onRetry={onRetry} />,
          <Button key="back" type="primary" onClick={onBack}>
            Go Back
          </Button>,
        ]}
      />
    </Card>
  );
}
