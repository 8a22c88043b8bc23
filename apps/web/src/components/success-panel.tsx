import { Button, Card, Flex, Result } from 'antd';
import { useNavigate } from 'react-router';
import { paths } from '../paths.ts';
import { FocusedTitle } from './focused-title.tsx';

type SuccessPanelProps = {
  title: string;
  subTitle?: string;
  /** The main way on; 'View requests' (to /dashboard/requests) unless told. */
  primary?: { label: string; href: string };
  /** A second way on, e.g. back to what was just submitted. */
  secondary?: { label: string; onClick: () => void };
};

const viewRequests = { label: 'View requests', href: paths.dashboard.requests.getHref() };

/**
 * A success panel of spec §2 whose main button ('View requests' unless told) replaces the history
 * entry, so Back does not return to a finished form. Its title takes the focus from the form it
 * replaces.
 */
export function SuccessPanel({
  title,
  subTitle,
  primary = viewRequests,
  secondary,
}: SuccessPanelProps) {
  const navigate = useNavigate();
  return (
    <Card>
      <Result
        status="success"
        title={<FocusedTitle>{title}</FocusedTitle>}
        subTitle={subTitle}
        // Two buttons that wrap on a phone keep a gap between their rows too; antd's own spacing
        // of the extra area is sideways only.
        extra={
          <Flex wrap gap="small" justify="center">
            <Button type="primary" onClick={() => void navigate(primary.href, { replace: true })}>
              {primary.label}
            </Button>
            {secondary ? <Button onClick={secondary.onClick}>{secondary.label}</Button> : null}
          </Flex>
        }
      />
    </Card>
  );
}
