import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { files, requests, retirements } from '../../db/schema.ts';

export type FileRow = typeof files.$inferSelect;

export async function insertFile(db: Executor, row: typeof files.$inferInsert): Promise<FileRow> {
  const [inserted] = await db.insert(files).values(row).returning();
  if (!inserted) throw new Error('no file row');
  return inserted;
}

export async function findFile(
  db: Executor,
  options: { organizationId: string; name: string },
): Promise<FileRow | undefined> {
  const [row] = await db
    .select()
    .from(files)
    .where(and(eq(files.organization_id, options.organizationId), eq(files.name, options.name)));
  return row;
}

export async function findFiles(
  db: Executor,
  options: { organizationId: string; names: string[] },
): Promise<FileRow[]> {
  if (options.names.length === 0) return [];
  return db
    .select()
    .from(files)
    .where(
      and(eq(files.organization_id, options.organizationId), inArray(files.name, options.names)),
    );
}

export async function markUploaded(
  db: Executor,
  options: { organizationId: string; name: string; size: number },
): Promise<void> {
  await db
    .update(files)
    .set({ uploaded_at: new Date(), size: options.size })
    .where(and(eq(files.organization_id, options.organizationId), eq(files.name, options.name)));
}

/**
 * The owners of the requests and retirements of an organisation that hold a file (through
 * requests_file_paths_idx and retirements_file_paths_idx): whoever may read one of them may read it.
 */
export async function holdersOfFile(
  db: Executor,
  options: { organizationId: string; name: string },
): Promise<string[]> {
  const holds = sql`ARRAY[${options.name}]::text[]`;
  const rows = await db
    .select({ owner: requests.request_owner_id })
    .from(requests)
    .where(
      and(
        eq(requests.organization_id, options.organizationId),
        sql`${requests.file_paths} @> ${holds}`,
      ),
    )
    .union(
      db
        .select({ owner: retirements.retirement_owner_id })
        .from(retirements)
        .where(
          and(
            eq(retirements.organization_id, options.organizationId),
            sql`${retirements.file_paths} @> ${holds}`,
          ),
        ),
    );
  return rows.map((row) => row.owner);
}
