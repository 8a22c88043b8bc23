import { and, eq, type SQL } from 'drizzle-orm';
import type { Executor } from '../src/db/client.ts';
import { emailOutbox } from '../src/db/schema.ts';

/**
 * The addresses of the queued e-mails of one kind (`NotificationKind`) that match every further
 * condition on the outbox row, in the order they were queued.
 */
export async function recipientsOf(
  db: Executor,
  kind: string,
  ...where: (SQL | undefined)[]
): Promise<string[]> {
  const rows = await db
    .select({ to: emailOutbox.to_address })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.kind, kind), ...where))
    .orderBy(emailOutbox.created_at, emailOutbox.id);
  return rows.map((row) => row.to);
}
