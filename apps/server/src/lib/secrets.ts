import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { appSecrets } from '../db/schema.ts';

/**
 * The JWT signing key: JWT_SECRET when set, otherwise one generated on first start and kept in the
 * database, so every process of a deployment signs with the same key (docs/decisions/0002).
 */
export async function loadJwtKey(
  db: Database,
  configured: string | undefined,
): Promise<Uint8Array> {
  if (configured) return new TextEncoder().encode(configured);
  await db
    .insert(appSecrets)
    .values({ name: 'jwt', value: randomBytes(48).toString('base64url') })
    .onConflictDoNothing();
  const [row] = await db.select().from(appSecrets).where(eq(appSecrets.name, 'jwt'));
  if (!row) throw new Error('JWT secret missing after insert');
  return new TextEncoder().encode(row.value);
}
