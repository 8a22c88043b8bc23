import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Department, Role } from '@imprest/domain/enums.ts';
import { systemRoleFor } from '@imprest/domain/permissions.ts';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, inject } from 'vitest';
import { buildApp } from '../src/app.ts';
import { readConfig, type Config } from '../src/config.ts';
import type { AppContext } from '../src/context.ts';
import { connect, type Database } from '../src/db/client.ts';
import { organizations, users } from '../src/db/schema.ts';
import { hashPassword } from '../src/features/auth/passwords.ts';
import { startSession } from '../src/features/auth/session.ts';
import { signToken } from '../src/features/auth/tokens.ts';
import { createEventBus, type EventPayloads, type SessionEndSink } from '../src/realtime/events.ts';
import { databaseUrl } from './global-setup.ts';

export type PublishedEvent = {
  organizationId: string;
  event: keyof EventPayloads;
  payload: unknown;
};

export type TestApp = {
  app: FastifyInstance;
  db: Database;
  context: AppContext;
  /** Events published so far (the socket.io sink is not attached in API tests). */
  events: PublishedEvent[];
  /** The URL of this file's database, for a second pool or pg-boss. */
  databaseUrl: string;
  /** Users whose sessions ended (`events.endSessions`), in order. */
  endedSessions: string[];
  /** Also forwards ended sessions elsewhere, e.g. to a real socket.io server. */
  onSessionEnd: (listener: SessionEndSink) => void;
};

export const testJwtSecret = 'test-secret-that-is-long-enough-for-hs256-signing';

/**
 * A fresh database cloned from the migrated template, and the app on it; closed after the file.
 * API tests go through `app.inject`, so HTTP parsing, validation and serialisation are real.
 */
export async function createTestApp(
  options: {
    /** Configuration overrides, e.g. `{ isDemo: true }`. */
    config?: Partial<Config>;
    /** The pool's connections; 1 sends every statement through one connection. */
    poolSize?: number;
  } = {},
): Promise<TestApp> {
  const adminUrl = inject('adminUrl');
  const name = `imprest_test_${inject('templateDatabase').split('_').pop()}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  // Several test files clone the template at once; PostgreSQL refuses a clone while another runs.
  for (let attempt = 0; ; attempt += 1) {
    try {
      await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${inject('templateDatabase')}"`);
      break;
    } catch (error) {
      if (attempt > 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
    }
  }
  await admin.end();
  const url = databaseUrl(adminUrl, name);
  const db = connect(url, { max: options.poolSize ?? 20 });
  // Files uploaded through the local store go to a folder of this file's own.
  const dataDir = path.resolve(import.meta.dirname, '../../../.tmp/test-data', name);
  const config = {
    ...readConfig({ JWT_SECRET: testJwtSecret, LOG_LEVEL: 'silent', DATA_DIR: dataDir }),
    webDist: '/nonexistent',
    verifyResponses: true,
    ...options.config,
  };
  const bus = createEventBus();
  const events: PublishedEvent[] = [];
  bus.attach((organizationId, event, payload) => events.push({ organizationId, event, payload }));
  const endedSessions: string[] = [];
  const sessionListeners: SessionEndSink[] = [];
  bus.attachSessionEnd((userId, sessionId) => {
    endedSessions.push(userId);
    for (const listener of sessionListeners) listener(userId, sessionId);
  });
  const context: AppContext = {
    config,
    db,
    jwtKey: new TextEncoder().encode(testJwtSecret),
    events: bus,
  };
  const app = await buildApp(context, { logger: false });
  await app.ready();
  afterAll(async () => {
    await app.close();
    await db.$client.end();
    const cleanup = new pg.Client({ connectionString: adminUrl });
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await cleanup.end();
    await fs.rm(dataDir, { recursive: true, force: true });
  });
  return {
    app,
    db,
    context,
    events,
    databaseUrl: url,
    endedSessions,
    onSessionEnd: (listener) => sessionListeners.push(listener),
  };
}

export const testPassword = 'correct horse battery';
let passwordHash: Promise<string> | undefined;

export type TestUser = typeof users.$inferSelect & { token: string; password: string };

/** Creates an organisation. */
export async function buildOrganization(db: Database, name = 'Test Org'): Promise<string> {
  const [row] = await db.insert(organizations).values({ name }).returning({ id: organizations.id });
  if (!row) throw new Error('no organisation');
  return row.id;
}

/** Creates a user (password `testPassword`) with a valid token. */
export async function buildUser(
  db: Database,
  options: {
    organizationId: string;
    role?: Role;
    department?: Department;
    email?: string;
    fullname?: string;
    isLocked?: boolean;
  },
): Promise<TestUser> {
  passwordHash ??= hashPassword(testPassword);
  const role = options.role ?? 'staff';
  const [row] = await db
    .insert(users)
    .values({
      organization_id: options.organizationId,
      fullname: options.fullname ?? `Test ${role}`,
      email: options.email ?? `${role}-${randomBytes(4).toString('hex')}@example.test`,
      department: options.department ?? 'engineering',
      role,
      system_role: systemRoleFor(role),
      is_locked: options.isLocked ?? false,
      password_hash: await passwordHash,
    })
    .returning();
  if (!row) throw new Error('no user');
  const session = await startSession(db, row.id);
  const token = signToken(
    new TextEncoder().encode(testJwtSecret),
    { sub: row.id, org: row.organization_id, sid: session.id },
    session.expiresAt,
  );
  return { ...row, token, password: testPassword };
}

/** Headers carrying a user's token. */
export function auth(user: { token: string }): Record<string, string> {
  return { authorization: `Bearer ${user.token}` };
}
