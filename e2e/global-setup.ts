import { startMailbox } from './tests/mailbox.ts';

/** Starts the SMTP mailbox the e2e server sends through for the whole run; returns its teardown. */
export default async function globalSetup(): Promise<() => Promise<void>> {
  return startMailbox();
}
