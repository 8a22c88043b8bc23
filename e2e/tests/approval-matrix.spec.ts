import { expect, test } from '@playwright/test';
import {
  apiToken,
  chooseFromUserMenu,
  desktop,
  expectNoSidewaysScroll,
  expectTableFits,
  expectUnclipped,
  phone,
  shot,
  signIn,
} from './support.ts';

// The approval matrix (spec §2, §6): everyone reads it, the director edits it.
test.use({ timezoneId: 'Africa/Dar_es_Salaam' });

test('the approval matrix: everyone reads it, the director edits it', async ({ page }) => {
  await page.setViewportSize(desktop);
  // Staff too (decisions §9): a requester sees who will review their amount.
  await signIn(page, 'staff@example.com');
  await page.goto('/dashboard/approval-matrix');
  await expect(page.getByText('150,000,000 and above')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Edit' })).toHaveCount(0);
  await chooseFromUserMenu(page, 'Log Out');

  await signIn(page, 'finance@example.com');
  await page.goto('/dashboard/approval-matrix');
  await expect(page.getByRole('columnheader', { name: 'REQUESTED AMOUNT' })).toBeVisible();
  await expect(page.getByText('150,000,000 and above')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Edit' })).toHaveCount(0);

  await chooseFromUserMenu(page, 'Log Out');
  await signIn(page, 'director@example.com');
  await page.goto('/dashboard/approval-matrix');
  await page.getByRole('button', { name: 'Edit' }).click();
  await expect(page).toHaveURL(/\/dashboard\/approval-object$/);
  await expect(page.getByTestId('approval-row')).toHaveCount(2);
  const firstRow = page.getByTestId('approval-row').first();
  const saves: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PUT' && request.url().includes('/api/v1/approval-matrix'))
      saves.push(request.url());
  });
  // A reviewer role once per row (the shared rule): the form says so at the field, sends nothing.
  const second = async (role: string) => {
    await firstRow.getByLabel('Second Reviewer').click();
    await page.locator('.ant-select-dropdown:visible').getByTitle(role, { exact: true }).click();
  };
  const onceARow = firstRow.getByText('A reviewer role may appear only once in a row');
  await second('Finance Officer');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(onceARow).toBeVisible();
  await second('Executive Secretary');
  await expect(onceARow).toHaveCount(0);
  expect(saves).toEqual([]);
  await firstRow.getByLabel('Description').fill('Group B (small amounts)');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/dashboard\/approval-matrix$/);
  expect(saves).toHaveLength(1);
  await expect(page.getByText('Group B (small amounts)')).toBeVisible();
  await shot(page, 'approval-matrix-1280');
  // Beside the side menu on a tablet and a small laptop the five columns keep to the card.
  for (const width of [800, 1024]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(page.getByRole('columnheader', { name: 'THIRD OFFICER' })).toBeVisible();
    await expectTableFits(page.getByTestId('approval-matrix-table'));
  }

  await page.setViewportSize(phone);
  // On a phone the officers of each row are on the screen, not off its edge.
  const table = page.getByTestId('approval-matrix-table');
  await expect(table.getByText('Finance Officer').first()).toBeVisible();
  await expectUnclipped(table.getByText(/^(Finance Officer|Executive Secretary|Director)$/));
  await expectNoSidewaysScroll(page);
  await shot(page, 'approval-matrix-375');
  await page.getByRole('button', { name: 'Edit' }).click();
  await expectNoSidewaysScroll(page);
  await shot(page, 'approval-object-375');

  // A warning about the rows goes as soon as the rows are mended, not at the next Save.
  const firstEnd = page.getByTestId('approval-row').first().getByLabel('End Amount');
  const end = await firstEnd.inputValue();
  await firstEnd.fill('100000000');
  await page.getByRole('button', { name: 'Save' }).click();
  const gap = page.getByText(/^Amounts from 100,000,000 to .* have no row\.$/);
  await expect(gap).toBeVisible();
  await firstEnd.fill(end.replace(/,/g, ''));
  await expect(gap).toHaveCount(0);
  expect(saves).toHaveLength(1);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/dashboard\/approval-matrix$/);
});

test('an open approval matrix form follows a save made elsewhere, and shows one that clashes with its changes', async ({
  page,
}) => {
  await page.setViewportSize(desktop);
  await signIn(page, 'director@example.com');
  const token = await apiToken(page.request, 'director@example.com');
  const headers = { Authorization: `Bearer ${token}` };
  type Row = {
    start_value: number;
    end_value: number | null;
    description: string;
    user_role: string[];
    cascading_notification: boolean;
  };
  const original = (
    (await (await page.request.get('/api/v1/approval-matrix', { headers })).json()) as {
      rows: Row[];
    }
  ).rows.map(({ start_value, end_value, description, user_role, cascading_notification }) => ({
    start_value,
    end_value,
    description,
    user_role,
    cascading_notification,
  }));
  // Another tab of a director saves the matrix with one description changed.
  const saveElsewhere = async (row: number, description: string) => {
    const rows = original.map((each, index) => (index === row ? { ...each, description } : each));
    const response = await page.request.put('/api/v1/approval-matrix', {
      headers,
      data: { rows },
    });
    expect(response.status(), await response.text()).toBe(200);
  };
  try {
    await page.goto('/dashboard/approval-matrix');
    await page.getByRole('button', { name: 'Edit' }).click();
    await expect(page.getByRole('status', { name: 'Live updates: connected' })).toBeVisible();
    const rows = page.getByTestId('approval-row');
    await expect(rows).toHaveCount(original.length);

    await test.step('untouched, the form takes the rows saved elsewhere', async () => {
      await saveElsewhere(0, 'Saved in another tab');
      await expect(rows.first().getByLabel('Description')).toHaveValue('Saved in another tab');
      await expect(page.getByTestId('matrix-clash')).toHaveCount(0);
    });

    await test.step('changed here and saved elsewhere: the clash is shown before Save', async () => {
      await rows.last().getByLabel('Description').fill('Changed here');
      await saveElsewhere(original.length - 1, 'Changed elsewhere');
      await expect(page.getByTestId('matrix-clash')).toContainText(
        'Someone else saved the approval matrix while you were editing.',
      );
      await expect(rows.last().getByLabel('Description')).toHaveValue('Changed here');
      await shot(page, 'approval-object-clash-1280');
    });

    await test.step('Save, having been shown the clash, replaces the matrix', async () => {
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page).toHaveURL(/\/dashboard\/approval-matrix$/);
      await expect(page.getByText('Changed here')).toBeVisible();
      await expect(page.getByText('Changed elsewhere')).toHaveCount(0);
    });
  } finally {
    const restored = await page.request.put('/api/v1/approval-matrix', {
      headers,
      data: { rows: original },
    });
    expect(restored.status()).toBe(200);
  }
});
