/**
 * The audit trail at 1,000,000 events (issue 15): `GET audit` pages through `app.inject` — the
 * first page, a page deep in the trail through its cursor, and each filter — against the target of
 * a page under 25 ms median. The events are generated in SQL (about a year of them, 50 people, each
 * action of the domain's list), with a second organisation's events mixed in.
 */
import { performance } from 'node:perf_hooks';
import { auditActions } from '@imprest/domain/audit.ts';
import { sql } from 'drizzle-orm';
import { organizations, users } from '../src/db/schema.ts';
import {
  buildBenchApp,
  explain,
  formatPlan,
  formatTiming,
  log,
  secondsSince,
  time,
  withDatabase,
} from './support.ts';

const eventCount = 1_000_000;
const people = 50;
const targetMedianMs = 25;
const calls = 200;

async function main(): Promise<void> {
  const startedAt = performance.now();
  await withDatabase(async (db) => {
    const [organization, other] = await db
      .insert(organizations)
      .values([{ name: 'Bench Audit' }, { name: 'Bench Elsewhere' }])
      .returning({ id: organizations.id });
    if (!organization || !other) throw new Error('no organisation');
    const staff = await db
      .insert(users)
      .values(
        Array.from({ length: people }, (_, n) => ({
          organization_id: organization.id,
          fullname: `Audited Person ${n}`,
          email: `person${n}@audit.bench.test`,
          department: 'finance',
          role: n === 0 ? ('director' as const) : ('finance_officer' as const),
          system_role: n === 0 ? ('director' as const) : ('admin' as const),
        })),
      )
      .returning({ id: users.id, organization_id: users.organization_id });
    const director = staff[0];
    const someone = staff[7];
    if (!director || !someone) throw new Error('no users');

    log(`writing ${eventCount.toLocaleString('en-GB')} audit events…`);
    const seededAt = performance.now();
    const actions = sql.raw(`ARRAY[${auditActions.map((action) => `'${action}'`).join(',')}]`);
    const ids = sql.raw(`ARRAY[${staff.map((user) => `'${user.id}'::uuid`).join(',')}]`);
    await db.execute(sql`
      INSERT INTO audit_events (organization_id, at, actor_id, actor_name, action, object_type,
                                object_id, changes, request_id, ip)
      SELECT CASE WHEN n % 10 = 0 THEN ${other.id}::uuid ELSE ${organization.id}::uuid END,
             now() - make_interval(secs => (${eventCount} - n) * 31.5),
             (${ids})[1 + n % ${people}],
             'Audited Person ' || (n % ${people}),
             (${actions})[1 + n % ${auditActions.length}],
             'request',
             md5((n / 7)::text),
             jsonb_build_object('status', jsonb_build_object('from', 'pending', 'to', 'approved')),
             'req-' || n,
             '10.0.' || (n % 250) || '.' || (n % 200)
      FROM generate_series(1, ${eventCount}) AS n`);
    await db.execute(sql`ANALYZE audit_events`);
    log(`written in ${secondsSince(seededAt)}`);

    const { app, authHeaders } = await buildBenchApp(db);
    const headers = await authHeaders(director);
    const get = async (url: string) =>
      (await app.inject({ method: 'GET', url: `/api/v1/${url}`, headers })).statusCode;

    // A cursor deep in the trail: the 500,000th newest event of the organisation.
    const deep = await db.execute<{ at_text: string; id: number }>(sql`
      SELECT to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at_text, id
      FROM audit_events WHERE organization_id = ${organization.id}
      ORDER BY at DESC, id DESC OFFSET 500000 LIMIT 1`);
    const deepRow = deep.rows[0];
    if (!deepRow) throw new Error('no deep event');
    const deepCursor = Buffer.from(`${deepRow.at_text}|${deepRow.id}`).toString('base64url');
    const objectId = (
      await db.execute<{ object_id: string }>(
        sql`SELECT object_id FROM audit_events WHERE organization_id = ${organization.id} LIMIT 1 OFFSET 123456`,
      )
    ).rows[0]?.object_id;

    // A person with an action of theirs, and with one they never did: before
    // audit_events_actor_action_idx the second walked all of the person's events (97 ms).
    const [theirs, never] = await Promise.all(
      [sql`EXISTS`, sql`NOT EXISTS`].map(async (exists) => {
        const found = await db.execute<{ action: string }>(sql`
          SELECT candidate AS action FROM unnest(${actions}) AS candidate
          WHERE ${exists} (SELECT 1 FROM audit_events e WHERE e.organization_id = ${organization.id}
                                AND e.actor_id = ${someone.id} AND e.action = candidate)
          LIMIT 1`);
        const action = found.rows[0]?.action;
        if (!action) throw new Error('no such action');
        return action;
      }),
    );
    const cases: [string, string][] = [
      ['first page', 'audit'],
      ['a page 500,000 events deep (cursor)', `audit?cursor=${deepCursor}`],
      ['by person', `audit?actor_id=${someone.id}`],
      ['by action', 'audit?action=review.approved'],
      ['by object', `audit?object_type=request&object_id=${objectId ?? ''}`],
      ['a month, half a year ago', `audit?from=${dayAgo(200)}&to=${dayAgo(170)}`],
      ['by person and an action of theirs', `audit?actor_id=${someone.id}&action=${theirs}`],
      ['by person and an action never theirs', `audit?actor_id=${someone.id}&action=${never}`],
    ];
    let missed = 0;
    process.stdout.write(
      `  GET audit over ${eventCount.toLocaleString('en-GB')} events, ${calls} calls each (target median < ${targetMedianMs} ms):\n`,
    );
    for (const [name, url] of cases) {
      const timing = await time(() => get(url), { calls, warmUpCalls: 20 });
      const isMet = timing.median < targetMedianMs;
      if (!isMet) missed += 1;
      process.stdout.write(
        `    ${name.padEnd(38)} ${formatTiming(timing)}   ${isMet ? 'target met' : 'TARGET MISSED'}\n`,
      );
    }
    const plan = await explain(
      db,
      `SELECT id FROM audit_events WHERE organization_id = $1 AND (at, id) < ($2::timestamptz, $3)
       ORDER BY at DESC, id DESC LIMIT 51`,
      [organization.id, deepRow.at_text, deepRow.id],
    );
    process.stdout.write(`  plan of the deep page:\n${formatPlan(plan)}\n`);
    process.stdout.write(missed === 0 ? '  every target met\n' : `  ${missed} target(s) MISSED\n`);
    await app.close();
  });
  log(`total ${secondsSince(startedAt)}`);
}

function dayAgo(days: number): string {
  return new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
}

await main();
