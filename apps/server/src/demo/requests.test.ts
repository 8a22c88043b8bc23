import fs from 'node:fs/promises';
import path from 'node:path';
import { approvalThreshold } from '@imprest/domain/constants.ts';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { files, requests, retirements, reviews } from '../db/schema.ts';
import { budgetBalance } from '../features/budgets/ledger.ts';
import { buildBudget } from '../../test/factories/budgets.ts';
import { buildOrganization, buildUser, createTestApp, type TestApp } from '../../test/helpers.ts';
import { seedDemoRequests } from './requests.ts';

// Independent of seed.ts: an organisation with the demo owners and reviewers, built here.
let t: TestApp;
let organizationId: string;

beforeAll(async () => {
  t = await createTestApp();
  organizationId = await buildOrganization(t.db, 'Imprest Demo');
  await buildUser(t.db, { organizationId, email: 'staff@example.com', fullname: 'Asha Staff' });
  await buildUser(t.db, {
    organizationId,
    email: 'parkmanager@example.com',
    fullname: 'Hamisi Parkmanager',
    role: 'stem_park_manager',
  });
  await buildUser(t.db, { organizationId, email: 'finance@example.com', role: 'finance_officer' });
  await buildUser(t.db, {
    organizationId,
    email: 'secretary@example.com',
    role: 'executive_secretary',
  });
  await buildUser(t.db, { organizationId, email: 'director@example.com', role: 'director' });
});

describe('seedDemoRequests', () => {
  it('skips gracefully while the demo budgets are missing', async () => {
    expect(await t.db.transaction((tx) => seedDemoRequests(tx, { organizationId }))).toBe(0);
    expect(await t.db.$count(requests)).toBe(0);
  });

  it('writes requests in every status, below and above the threshold, without over-committing', async () => {
    // The sizes of the budgets seed: 5001 cannot hold both large requests, so one moves to 6105.
    const operations = await buildBudget(t.db, {
      organizationId,
      code: '6105',
      amount: 500_000_000,
    });
    const administration = await buildBudget(t.db, {
      organizationId,
      code: '5001',
      amount: 300_000_000,
    });
    const dataDir = t.context.config.dataDir;
    const written = await t.db.transaction((tx) =>
      seedDemoRequests(tx, { organizationId, dataDir }),
    );
    // Nine requests (one with an earlier returned version) and five approved ones with retirements.
    expect(written).toBe(15);

    const rows = await t.db
      .select()
      .from(requests)
      .where(eq(requests.organization_id, organizationId));
    const latest = rows.filter((row) => row.is_latest);
    expect(new Set(latest.map((row) => row.current_status))).toEqual(
      new Set(['pending', 'on_progress', 'approved', 'rejected', 'request_edit']),
    );
    expect(latest.some((row) => Number(row.amount_base) >= approvalThreshold)).toBe(true);
    expect(latest.some((row) => Number(row.amount_base) < approvalThreshold)).toBe(true);
    expect(new Set(latest.map((row) => row.request_owner_name))).toEqual(
      new Set(['Asha Staff', 'Hamisi Parkmanager']),
    );
    expect(new Set(latest.map((row) => row.budget_code))).toEqual(new Set(['6105', '5001']));
    const numbers = latest
      .filter((row) => row.current_status === 'approved')
      .map((row) => row.approval_number);
    expect(numbers).toHaveLength(7);
    for (const number of numbers) expect(number).toMatch(/^AP-\d{4}-0000[1-7]$/);

    // One chain has an older version returned for edits.
    const returned = rows.find((row) => !row.is_latest);
    expect(returned?.current_status).toBe('request_edit');
    expect(rows.find((row) => row.parent_request === returned?.id)?.version).toBe(2);

    // The statuses agree with the reviews, as a live review would have left them.
    for (const row of rows) {
      const chain = await t.db
        .select()
        .from(reviews)
        .where(eq(reviews.request_id, row.id))
        .orderBy(reviews.step);
      const statuses = chain.map((review) => review.status);
      const expected = {
        pending: statuses.every((status) => status === 'pending'),
        on_progress: statuses[0] === 'approved' && statuses.at(-1) === 'pending',
        approved: statuses.every((status) => status === 'approved'),
        rejected: statuses.includes('rejected'),
        request_edit: statuses[0] === 'request_edit',
      }[row.current_status];
      expect(expected, `${row.current_status}: ${statuses.join(', ')}`).toBe(true);
      expect(
        chain.filter((review) => review.status !== 'pending').every((review) => review.reviewer_id),
      ).toBe(true);
    }
    for (const budget of [operations, administration]) {
      expect((await budgetBalance(t.db, budget)).available).toBeGreaterThanOrEqual(0);
    }

    // Two requests hold a PDF, stored in the local store and recorded as their owner's upload.
    const attached = latest.filter((row) => row.file_paths.length > 0);
    expect(attached.map((row) => row.purpose).sort()).toEqual(['accomodation', 'travel']);
    for (const row of attached) {
      const [name] = row.file_paths;
      const content = await fs.readFile(
        path.join(dataDir, 'files', organizationId, name ?? ''),
        'latin1',
      );
      expect(content.startsWith('%PDF-1.4')).toBe(true);
      expect(content.trimEnd().endsWith('%%EOF')).toBe(true);
      const [file] = await t.db
        .select()
        .from(files)
        .where(eq(files.name, name ?? ''));
      expect(file).toMatchObject({ uploaded_by: row.request_owner_id, size: content.length });
    }

    // Every submitted retirement holds its receipt, as its comments say; one not yet submitted none.
    const demoRetirements = await t.db
      .select()
      .from(retirements)
      .where(eq(retirements.organization_id, organizationId));
    expect(demoRetirements.filter((row) => row.status !== 'pending')).toHaveLength(3);
    for (const row of demoRetirements) {
      if (row.status === 'pending') {
        expect(row.file_paths).toEqual([]);
        continue;
      }
      expect(row.file_paths).toHaveLength(1);
      const [name] = row.file_paths;
      const content = await fs.readFile(
        path.join(dataDir, 'files', organizationId, name ?? ''),
        'latin1',
      );
      expect(content.startsWith('%PDF-1.4')).toBe(true);
      const [file] = await t.db
        .select()
        .from(files)
        .where(eq(files.name, name ?? ''));
      expect(file).toMatchObject({ uploaded_by: row.retirement_owner_id, size: content.length });
      expect(file?.original_name).toMatch(/^[A-Z][A-Za-z_]+\.pdf$/);
    }
  });
});
