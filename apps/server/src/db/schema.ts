import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const timestamps = {
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  modified_at: timestamp('modified_at', { withTimezone: true }).notNull().defaultNow(),
};

export const organizations = pgTable('organizations', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  ...timestamps,
});

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organization_id: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    fullname: text('fullname').notNull(),
    email: text('email').notNull(),
    department: text('department').notNull(),
    role: text('role').notNull(),
    system_role: text('system_role').notNull(),
    is_locked: boolean('is_locked').notNull().default(false),
    /** Who set the lock: `finance` (stays until finance lifts it) or `system` (the midnight job). */
    locked_by: text('locked_by'),
    lock_reason: text('lock_reason'),
    phone_number: text('phone_number'),
    settings: text('settings').notNull().default('{"mute_notification":false}'),
    password_hash: text('password_hash'),
    last_logged_in: timestamp('last_logged_in', { withTimezone: true }),
    deleted_at: timestamp('deleted_at', { withTimezone: true }),
    ...timestamps,
  },
  (table) => [
    // Sign-in is by e-mail alone, so an address names one account across organisations.
    uniqueIndex('users_email_key').on(sql`lower(${table.email})`),
    index('users_organization_idx').on(table.organization_id, table.role),
  ],
);

/** Failed sign-ins, counted per account and per address to throttle guessing. */
export const signInFailures = pgTable(
  'sign_in_failures',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    email: text('email').notNull(),
    address: text('address').notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('sign_in_failures_email_idx').on(table.email, table.created_at),
    index('sign_in_failures_address_idx').on(table.address, table.created_at),
  ],
);

/** Secrets generated once and shared by every server process (the JWT key when none is set). */
export const appSecrets = pgTable('app_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
