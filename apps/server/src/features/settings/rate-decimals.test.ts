import { beforeAll, describe, expect, it } from 'vitest';
import { appWithStaffedOrganization } from '../../../test/factories/organizations.ts';
import { auth, type TestApp, type TestUser } from '../../../test/helpers.ts';

let t: TestApp;
let finance: TestUser;

beforeAll(async () => {
  ({
    t,
    org: { finance },
  } = await appWithStaffedOrganization());
});

const url = '/api/v1/settings/exchange-rates';

describe('PUT settings/exchange-rates: rates with more than 6 decimals', () => {
  it.each([2600.0000000001, 1.0000000001, 3300.1234560004])(
    'refuses %s with 400 ("Rates may have at most 6 decimals") instead of storing a rounded rate',
    async (usd) => {
      const response = await t.app.inject({
        method: 'PUT',
        url,
        headers: auth(finance),
        payload: { base: 'tzs', rates: { usd, gbp: 3300, chf: 2900 } },
      });
      // These were stored rounded to 6 decimals: the rate answered was not the one sent.
      expect({ status: response.statusCode, body: response.json() }).toMatchObject({
        status: 400,
        body: { error: expect.stringContaining('at most 6 decimals') },
      });
    },
  );
});
