import { roleListText } from '@imprest/domain/enums.ts';
import { Alert } from 'antd';
import { Link } from 'react-router';
import { paths } from '../../../paths.ts';
import { useMatrixVacancies } from '../api/get-matrix-vacancies.ts';

/**
 * For admins (who alone may ask, and may add users), where the users and the approval matrix are kept: the matrix's positions that no
 * unlocked user holds. A request reaching such a step would wait there with nobody to answer it,
 * which nothing else in the app would show until someone asked why.
 */
export function VacantPositions() {
  const vacancies = useMatrixVacancies();
  const roles = vacancies.data?.roles ?? [];
  if (roles.length === 0) return null;
  const names = roleListText(roles);
  const many = roles.length > 1;
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="vacant-positions"
      title={`No active user holds the position${many ? 's' : ''} ${names}`}
      description={
        <>
          Requests wait at {many ? 'those steps' : 'that step'} of the approval matrix, with nobody
          to review them.{' '}
          {/* Underlined: a link inside a sentence is told apart by more than its colour. */}
          <Link to={paths.dashboard.newUsers.getHref()} style={{ textDecoration: 'underline' }}>
            Add a user
          </Link>
        </>
      }
    />
  );
}
