import { Alert } from 'antd';

/** Above a form whose input came back after the session ended (lib/kept-drafts.ts). */
export function RestoredDraftNotice() {
  return (
    <Alert
      type="info"
      showIcon
      title="What you typed before your session ended is back. Check it, then submit."
      style={{ marginBottom: 16 }}
      data-testid="draft-restored"
    />
  );
}
