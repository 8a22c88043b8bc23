import { ClockCircleOutlined } from '@ant-design/icons';
import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { paths } from '../paths.ts';

type ComingSoonProps = { page: string };

/** Stands in for a page whose feature has not landed yet, and says so plainly. */
export function ComingSoon({ page }: ComingSoonProps) {
  const navigate = useNavigate();
  return (
    <Result
      icon={<ClockCircleOutlined />}
      title={`${page} is coming soon`}
      subTitle="This part of Imprest is still being built."
      extra={
        <Button onClick={() => void navigate(paths.dashboard.home.getHref())}>
          Back to Dashboard
        </Button>
      }
    />
  );
}
