import { Navigate, useSearchParams } from 'react-router';
import { paths } from '../../../paths.ts';

/** Route /reset-link: the e-mailed link lands here and goes on to /new-password (spec §2). */
export function ResetLinkPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const email = searchParams.get('email') ?? '';
  const welcome = searchParams.get('welcome') === '1' ? '1' : undefined;
  if (!token) return <Navigate to={paths.signIn.getHref()} replace />;
  return <Navigate to={paths.newPassword.getHref({ token, email, welcome })} replace />;
}
