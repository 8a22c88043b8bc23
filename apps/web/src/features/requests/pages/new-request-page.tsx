import { requestResponse, type RequestResponse } from '@imprest/domain/api/requests.ts';
import { Alert, Card } from 'antd';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { z } from 'zod';
import { SuccessPanel } from '../../../components/success-panel.tsx';
import { useCurrentUser } from '../../../lib/session.tsx';
import { useIsMobile } from '../../../lib/use-media-query.ts';
import { paths } from '../../../paths.ts';
import { RequestForm } from '../components/request-form.tsx';

/** Spec §2: the request view's Edit button passes the request, isEdit and isAdmin (false). */
const editState = z.object({
  request: requestResponse,
  isEdit: z.literal(true),
  isAdmin: z.boolean().optional(),
});

/** The request to resubmit, when the page was opened from the request view's Edit button. */
function editedRequest(state: unknown): RequestResponse | undefined {
  const parsed = editState.safeParse(state);
  return parsed.success ? parsed.data.request : undefined;
}

/** Route /dashboard/new-requests: a new request, or the owner's edit of one returned for edits. */
export function NewRequestPage() {
  const location = useLocation();
  // Every visit starts afresh, also the header's New Request button pressed on this very page.
  return <NewRequest key={location.key} />;
}

function NewRequest() {
  const user = useCurrentUser();
  const location = useLocation();
  const navigate = useNavigate();
  const isMobile = useIsMobile();
  const [editing] = useState(() => editedRequest(location.state));
  const [submitted, setSubmitted] = useState<RequestResponse | null>(null);

  if (submitted) {
    return (
      <SuccessPanel
        title="Request successful"
        subTitle="Your request has been submitted. We will notify you as it moves along the approval process."
        secondary={{
          label: 'Open this request',
          onClick: () =>
            void navigate(paths.dashboard.request.getHref(submitted.id), { replace: true }),
        }}
      />
    );
  }

  const returningReview = editing?.reviews.find((review) => review.status === 'request_edit');

  return (
    <Card size={isMobile ? 'small' : 'medium'}>
      {editing ? (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          title={`Editing version ${editing.version} of this request, returned for edits${
            returningReview?.reviewer_name ? ` by ${returningReview.reviewer_name}` : ''
          }.`}
          description={returningReview?.comments || undefined}
        />
      ) : null}
      <RequestForm user={user} editing={editing} onSubmitted={setSubmitted} />
    </Card>
  );
}
