import type { ReactNode } from 'react';

/**
 * Text a person wrote (a justification, comments): their line breaks kept, and a long word or
 * link wrapped where it must, so that it does not widen the page on a phone.
 */
export function WrittenText({ children }: { children: ReactNode }) {
  return <span style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{children}</span>;
}
