import { describe, expect, it } from 'vitest';
import { readConfig } from './config.ts';

describe('ORG_TIMEZONE', () => {
  it('defaults to Africa/Dar_es_Salaam and takes any IANA zone', () => {
    expect(readConfig({}).orgTimezone).toBe('Africa/Dar_es_Salaam');
    expect(readConfig({ ORG_TIMEZONE: 'Pacific/Auckland' }).orgTimezone).toBe('Pacific/Auckland');
  });

  it.each(['Africa/Nowhere', 'EAT+3', ''])(
    'refuses %j at start, not on the first date it reads',
    (zone) => {
      expect(() => readConfig({ ORG_TIMEZONE: zone })).toThrow(
        'ORG_TIMEZONE must be an IANA time zone such as Africa/Dar_es_Salaam',
      );
    },
  );
});

describe('PORT', () => {
  it('is 3000 unset or empty (PORT= in an env file), and a port when given', () => {
    expect(readConfig({}).port).toBe(3000);
    expect(readConfig({ PORT: '' }).port).toBe(3000);
    expect(readConfig({ PORT: ' ' }).port).toBe(3000);
    expect(readConfig({ PORT: '8080' }).port).toBe(8080);
  });

  it.each(['http', '70000', '-1'])('refuses %j at start', (port) => {
    expect(() => readConfig({ PORT: port })).toThrow(/PORT/);
  });
});
