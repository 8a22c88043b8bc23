import { Alert, Button, type ButtonProps } from 'antd';
import { useState, type CSSProperties, type ReactNode } from 'react';

type TryAgainButtonProps = {
  /** Reads the data again, e.g. a query's refetch(); the button spins until it settles. */
  onRetry: () => Promise<unknown>;
  type?: ButtonProps['type'];
  size?: ButtonProps['size'];
};

/**
 * "Try again" for something that could not be loaded: a failed read is read again in place, where
 * before the only way out was to reload the whole app.
 */
export function TryAgainButton({ onRetry, type, size }: TryAgainButtonProps) {
  const [isRetrying, setIsRetrying] = useState(false);

  async function handleRetry() {
    setIsRetrying(true);
    try {
      await onRetry();
    } finally {
      // A success usually unmounts the button; React ignores the update then.
      setIsRetrying(false);
    }
  }

  return (
    <Button type={type} size={size} loading={isRetrying} onClick={() => void handleRetry()}>
      Try again
    </Button>
  );
}

type LoadErrorProps = {
  /** What failed, e.g. the error's message or "The request counts could not be loaded just now." */
  title: ReactNode;
  /** Reads the data again, e.g. a query's refetch(). */
  onRetry: () => Promise<unknown>;
  /** 'warning' for a part the page can do without, e.g. Home's counts. */
  type?: 'error' | 'warning';
  style?: CSSProperties;
  'data-testid'?: string;
};

/** A list or a panel whose data could not be loaded: the failure, with Try again beside it. */
export function LoadError({
  title,
  onRetry,
  type = 'error',
  style,
  'data-testid': testId,
}: LoadErrorProps) {
  return (
    <Alert
      type={type}
      showIcon
      title={title}
      action={<TryAgainButton size="small" onRetry={onRetry} />}
      style={style}
      data-testid={testId}
    />
  );
}
