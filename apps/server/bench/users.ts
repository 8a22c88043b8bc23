/**
 * A 10,000-user import (issue 9): one `POST users` of 10,000 rows through `app.inject`, end to end
 * — JSON parsing, every row checked, the e-mail look-up, one transaction of multi-row INSERTs of
 * users, invitation tokens and invitation e-mails — against the target of under 10 s.
 */
import { performance } from 'node:perf_hooks';
import { maxUsersPerImport } from '@imprest/domain/constants.ts';
import { organizations, users } from '../src/db/schema.ts';
import { buildBenchApp, log, secondsSince, withDatabase } from './support.ts';

const targetSeconds = 10;

async function main(): Promise<void> {
  const startedAt = performance.now();
  await withDatabase(async (db) => {
    const [organization] = await db
      .insert(organizations)
      .values({ name: 'Bench Import' })
      .returning({ id: organizations.id });
    if (!organization) throw new Error('no organisation');
    const [admin] = await db
      .insert(users)
      .values({
        organization_id: organization.id,
        fullname: 'Bench Admin',
        email: 'admin@bench.test',
        department: 'it',
        role: 'admin',
        system_role: 'admin',
      })
      .returning();
    if (!admin) throw new Error('no admin');
    const { app, authHeaders } = await buildBenchApp(db);
    const rows = Array.from({ length: maxUsersPerImport }, (_, n) => ({
      fullname: `Imported Person ${n}`,
      email: `person${n}@import.bench.test`,
      department: 'engineering',
      role: 'staff',
      system_role: 'staff',
      phone_number: `2557${String(n).padStart(8, '0')}`,
    }));
    const payload = JSON.stringify(rows);
    const headers = { ...(await authHeaders(admin)), 'content-type': 'application/json' };
    log(`importing ${rows.length} users (${(payload.length / 1e6).toFixed(1)} MB of JSON)…`);
    const callStartedAt = performance.now();
    const response = await app.inject({ method: 'POST', url: '/api/v1/users', headers, payload });
    const seconds = (performance.now() - callStartedAt) / 1000;
    if (response.statusCode !== 201)
      throw new Error(`import answered ${response.statusCode}: ${response.body.slice(0, 300)}`);
    const count = await db.$count(users);
    process.stdout.write(
      `  POST users, ${rows.length} rows, one transaction: ${seconds.toFixed(2)} s (target < ${targetSeconds} s) — ${seconds < targetSeconds ? 'target met' : 'TARGET MISSED'}; ${count - 1} users stored\n`,
    );
    await app.close();
  });
  log(`total ${secondsSince(startedAt)}`);
}

await main();
