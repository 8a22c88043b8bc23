import { messages } from '@imprest/domain/messages.ts';
import type { ReactNode } from 'react';
import { Logo } from '../../../components/logo.tsx';
import { useDocumentTitle } from '../../../lib/document-title.ts';

type AuthLayoutProps = {
  /** The page's name in the browser's title. */
  title: string;
  children: ReactNode;
};

/** Sign-in style page: a side panel with the tagline (spec §1) and the form beside it. */
export function AuthLayout({ title, children }: AuthLayoutProps) {
  useDocumentTitle(title);
  return (
    <div className="auth-layout">
      <aside className="auth-panel">
        <Logo size={40} inverted />
        <p className="auth-tagline">{messages.tagline}</p>
      </aside>
      <main className="auth-main">
        <div className="auth-card">{children}</div>
      </main>
    </div>
  );
}
