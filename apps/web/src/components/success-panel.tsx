import { Button, Card, Result } from 'antd';
import { useNavigate } from 'react-router';
import { paths } from '../paths.ts';

type SuccessPanelProps = {
  title: string;
  subTitle: string;
  /** A second way on, e.g. back to what was just submitted. */
  secondary?: { label: string; onClick: () => void };
};

/**
 * A success panel with the 'View requests' button of spec §2, which goes to /dashboard/requests
 * replacing the history entry, so Back does not return to a finished form.
 */
export function SuccessPanel({ title, subTitle, secondary }: SuccessPanelProps) {
  const navigate = useNavigate();
  return (
    <Card>
      <Result
        status="success"
        title={title}
        subTitle={subTitle}
        extra={[
          <Button
            key="requests"
            type="primary"
            onClick={() => void navigate(paths.dashboard.requests.getHref(), { replace: true })}
          >
            View requests
          </Button>,
          secondary ? (
            <Button key="secondary" onClick={secondary.onClick}>
              {secondary.label}
            </Button>
          ) : null,
        ]}
      />
    </Card>
  );
}
