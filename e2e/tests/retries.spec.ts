import { expect, test, type APIRequestContext } from '@playwright/test';
import {
  apiToken,
  choose,
  chooseBudgetCode,
  createRequest,
  desktop,
  phone,
  shot,
  signIn,
} from './support.ts';

/** The signed-in user's id, from the token's own validation. */
async function userId(request: APIRequestContext, token: string): Promise<string> {
  const answer = await request.get('/api/v1/users/validate-token', {
    headers: { Authorization: `Bearer ${token}` },
  });
  return ((await answer.json()) as { user: { id: string } }).user.id;
}

test.use({ timezoneId: 'Africa/Dar_es_Salaam' });

/*
 * Issue 14: on a flaky mobile network the answer to a write that did commit is often lost. The
 * web app sends one Idempotency-Key per form submission and retries a dropped connection with it;
 * the server answers the retry with the first answer and writes nothing twice.
 */
test('a review whose answer is lost on the way back is retried with its key and made once', async ({
  page,
  request,
}) => {
  await page.setViewportSize(phone);
  const id = await createRequest(request, { name_of_establishment: 'Retry Traders' });
  await signIn(page, 'finance@example.com');

  const keys: string[] = [];
  const replayed: string[] = [];
  await page.route('**/api/v1/reviews', async (route) => {
    keys.push(route.request().headers()['idempotency-key'] ?? '');
    if (keys.length === 1) {
      // The call reaches the server and commits; only its answer is lost.
      const response = await route.fetch();
      expect(response.status()).toBe(200);
      await route.abort('connectionreset');
      return;
    }
    const response = await route.fetch();
    replayed.push(response.headers()['idempotent-replayed'] ?? '');
    await route.fulfill({ response });
  });

  await page.goto(`/dashboard/requests/${id}`);
  const panel = page.getByTestId('review-panel');
  await expect(panel).toBeVisible();
  await panel.getByLabel('Comments (optional)').fill('Approved after a dropped connection');
  await panel.getByRole('button', { name: 'Accept' }).click();
  await expect(page.getByText('Review Successful')).toBeVisible();
  await shot(page, 'retried-review-375');

  expect(keys).toHaveLength(2);
  expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
  expect(keys[1]).toBe(keys[0]);
  expect(replayed).toEqual(['true']);

  // The server holds one answer: the first step approved once, the second still waiting.
  const token = await apiToken(request, 'finance@example.com');
  const stored = await request.get(`/api/v1/requests/request/${id}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const body = (await stored.json()) as {
    current_status: string;
    reviews: { step: number; status: string; comments: string | null }[];
  };
  expect(body.current_status).toBe('on_progress');
  expect(body.reviews.map((review) => review.status)).toEqual(['approved', 'pending']);
  expect(body.reviews[0]?.comments).toBe('Approved after a dropped connection');
});

test('each submission carries a key of its own', async ({ page, request }) => {
  await page.setViewportSize(desktop);
  const first = await createRequest(request, { name_of_establishment: 'Key One' });
  const second = await createRequest(request, { name_of_establishment: 'Key Two' });
  await signIn(page, 'finance@example.com');
  const keys: string[] = [];
  page.on('request', (sent) => {
    if (sent.url().endsWith('/api/v1/reviews')) keys.push(sent.headers()['idempotency-key'] ?? '');
  });
  for (const id of [first, second]) {
    await page.goto(`/dashboard/requests/${id}`);
    const panel = page.getByTestId('review-panel');
    await expect(panel).toBeVisible();
    await panel.getByRole('button', { name: 'Accept' }).click();
    await expect(page.getByText('Review Successful')).toBeVisible();
  }
  await expect.poll(() => keys.length).toBe(2);
  expect(new Set(keys).size).toBe(2);
});

test('pressing Submit again after every retry failed sends the same key: one request is made', async ({
  page,
  request,
}) => {
  await page.setViewportSize(desktop);
  await signIn(page, 'staff@example.com');
  const justification = `Fares sent twice on a bad line ${Date.now()}`;

  const keys: string[] = [];
  const replayed: string[] = [];
  await page.route('**/api/v1/requests', async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    keys.push(route.request().headers()['idempotency-key'] ?? '');
    if (keys.length === 1) {
      // The first try commits and its answer is lost; the three automatic retries never get
      // through, so the person is shown a failure although the request was made.
      const response = await route.fetch();
      expect(response.status()).toBe(201);
      return route.abort('connectionreset');
    }
    if (keys.length <= 4) return route.abort('connectionreset');
    const response = await route.fetch();
    replayed.push(response.headers()['idempotent-replayed'] ?? '');
    return route.fulfill({ response });
  });

  await page.getByTestId('new-button').click();
  const form = page.getByTestId('request-form');
  await choose(page, 'Purpose', 'Travel');
  await choose(page, 'Mode of Transport', 'Public');
  await form.getByLabel('Name of Transporter').fill('Dar Express');
  await form.getByLabel('Expenditure Justification').fill(justification);
  await form.getByLabel('Amount Required').fill('35000');
  await chooseBudgetCode(page, '6105');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect.poll(() => keys.length, { timeout: 15_000 }).toBe(4);
  await expect(page.getByRole('button', { name: 'Submit' })).toBeEnabled({ timeout: 15_000 });
  // Not the browser's "Failed to fetch": what happened, and that sending again is safe.
  await expect(
    page.getByText(/may or may not have been saved.*will not be made twice/),
  ).toBeVisible();
  await shot(page, 'request-submit-failed-1280');

  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Request successful')).toBeVisible();
  expect(new Set(keys).size).toBe(1);
  expect(replayed).toEqual(['true']);

  // One request holds the justification, however many times it was sent.
  const token = await apiToken(request, 'staff@example.com');
  const list = await request.get(`/api/v1/requests/user/${await userId(request, token)}`, {
    headers: { Authorization: `Bearer ${token}` },
    params: { per_page: 100 },
  });
  expect(list.ok()).toBe(true);
  const found = ((await list.json()) as { data: { expenditure_justification: string }[] }).data;
  expect(found.filter((row) => row.expenditure_justification === justification)).toHaveLength(1);
});
