import type { Department, Role } from '@imprest/domain/enums.ts';
import { systemRoleFor } from '@imprest/domain/permissions.ts';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { organizations, users } from '../db/schema.ts';
import { hashPassword } from '../features/auth/passwords.ts';
import { applyLockRules } from '../features/jobs/service.ts';
import { seedDemoRequests } from './requests.ts';
import { seedDemoBudgets } from './budgets.ts';

export const demoPassword = 'Imprest#2026';

/** The demo accounts of decisions §1. */
export const demoUsers: { email: string; fullname: string; role: Role; department: Department }[] =
  [
    {
      email: 'staff@example.com',
      fullname: 'Asha Staff',
      role: 'staff',
      department: 'engineering',
    },
    {
      email: 'custodian@example.com',
      fullname: 'Baraka Custodian',
      role: 'petty_cash_custodian',
      department: 'finance',
    },
    {
      email: 'finance@example.com',
      fullname: 'Chausiku Finance',
      role: 'finance_officer',
      department: 'finance',
    },
    {
      email: 'secretary@example.com',
      fullname: 'Daudi Secretary',
      role: 'executive_secretary',
      department: 'administration',
    },
    {
      email: 'director@example.com',
      fullname: 'Eshe Director',
      role: 'director',
      department: 'administration',
    },
    {
      email: 'chairman@example.com',
      fullname: 'Faraji Chairman',
      role: 'board_chairman',
      department: 'administration',
    },
    { email: 'admin@example.com', fullname: 'Gimbi Admin', role: 'admin', department: 'it' },
    {
      email: 'parkmanager@example.com',
      fullname: 'Hamisi Parkmanager',
      role: 'stem_park_manager',
      department: 'stemKits',
    },
  ];

/**
 * Seeds the demo organisation when the database has no users yet; returns whether it did. `today`
 * (`YYYY-MM-DD`, the day in ORG_TIMEZONE; UTC's by default) dates the requests and retirements, and
 * the lock job runs as of it at the end, so the owner past the lock line starts locked.
 */
export async function seedDemo(
  db: Database,
  options: { dataDir?: string; today?: string } = {},
): Promise<boolean> {
  const today = options.today ?? new Date().toISOString().slice(0, 10);
  const hashes = await Promise.all(demoUsers.map(() => hashPassword(demoPassword)));
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(727002)`);
    const [existing] = await tx.select({ id: users.id }).from(users).limit(1);
    if (existing) return false;
    const [organization] = await tx
      .insert(organizations)
      .values({ name: 'Imprest Demo' })
      .returning();
    if (!organization) throw new Error('demo organisation insert returned nothing');
    const inserted = await tx
      .insert(users)
      .values(
        demoUsers.map((user, index) => ({
          organization_id: organization.id,
          fullname: user.fullname,
          email: user.email,
          role: user.role,
          system_role: systemRoleFor(user.role),
          department: user.department,
          phone_number: `2557000000${index}`,
          password_hash: hashes[index] ?? null,
        })),
      )
      .returning({ id: users.id, email: users.email });
    const financeOfficer = inserted.find((user) => user.email === 'finance@example.com');
    if (!financeOfficer) throw new Error('demo finance officer insert returned nothing');
    await seedDemoBudgets(tx, { organizationId: organization.id, createdBy: financeOfficer.id });
    await seedDemoRequests(tx, {
      organizationId: organization.id,
      dataDir: options.dataDir,
      today,
    });
    // Nobody is signed in yet, so the job's update_user events have no one to tell.
    await applyLockRules(tx, { asOf: today, organizationId: organization.id });
    return true;
  });
}
