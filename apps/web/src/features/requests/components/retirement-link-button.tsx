import type { RequestResponse } from '@imprest/domain/api/requests.ts';
import { Button } from 'antd';
import { useNavigate } from 'react-router';
import { paths } from '../../../paths.ts';

type RetirementLinkButtonProps = {
  request: Pick<RequestResponse, 'id' | 'current_retirement'>;
  isOwner: boolean;
};

/**
 * Opens the request's retirement form: 'Submit Retirement' for its owner while it waits for them,
 * otherwise 'View Retirement'.
 */
export function RetirementLinkButton({ request, isOwner }: RetirementLinkButtonProps) {
  const navigate = useNavigate();
  const retirement = request.current_retirement;
  if (!retirement) return null;
  const isOwnersTurn = isOwner && retirement.status === 'pending';
  return (
    <Button
      type={isOwnersTurn ? 'primary' : 'default'}
      onClick={() => void navigate(paths.dashboard.retirement.getHref(request.id))}
      data-testid="open-retirement"
    >
      {isOwnersTurn ? 'Submit Retirement' : 'View Retirement'}
    </Button>
  );
}
