/**
 * The read calls the load benchmark (load.ts) drives: every read of the product, each as one of
 * organisation 0's people (its staff member or its finance officer) or, for sign-in, nobody.
 */
import { loadPassword } from './seed-load.ts';
import type { Shot } from './load-drive.ts';
import type { Row } from './load-report.ts';
import type { LoadTargets } from './load-targets.ts';

/** A read: what is sent, as whom, and a note or a design reason the report prints beside it. */
export type Read = {
  name: string;
  shot: Shot;
  as: 'staff' | 'finance' | null;
  note?: string;
  design?: Row['design'];
};

function get(url: string): Shot {
  return { method: 'GET', path: url, headers: {} };
}

/** The reads, in the order they run and the report lists them. */
export function readCalls({
  staff,
  finance,
  someBudget,
  oneRequest,
}: Pick<LoadTargets, 'staff' | 'finance' | 'someBudget' | 'oneRequest'>): Read[] {
  const admin = `requests/finance_officer/${finance.id}?page=1&per_page=10`;
  return [
    {
      name: 'sign-in (POST users/authenticate)',
      shot: {
        method: 'POST',
        path: 'users/authenticate',
        headers: {},
        body: JSON.stringify({ email: staff.email, password: loadPassword }),
      },
      as: null,
      note: 'argon2id verification per call',
      design: {
        reason:
          'every call verifies an argon2id password hash, with the OWASP parameters (m=19 MiB, t=2, auth/passwords.ts), which make each guess of a password cost CPU and memory on purpose',
        next: 'a target of its own, set by the hash parameters, not by this table.',
      },
    },
    { name: 'validate-token', shot: get('users/validate-token'), as: 'staff' },
    { name: 'budget list (finance)', shot: get('budget?page=1&per_page=10'), as: 'finance' },
    { name: 'budget detail', shot: get(`budget/${someBudget}`), as: 'finance' },
    {
      name: 'budget codes',
      shot: get('budget/codes'),
      as: 'staff',
      design: {
        reason:
          "every call answers all of the organisation's active codes with their available amounts, as spec §7's `GET budget/codes` says (about 200 KB at full scale); the request form looks codes up as they are typed instead (the typed lookup below, docs/decisions/0025)",
        next: 'none for the form, which no longer asks for the full list; an API client that wants it pays for its size.',
      },
    },
    {
      // The request form's lookup after two typed characters: codes starting with them first.
      name: 'budget codes, typed lookup',
      shot: get(`budget/codes?search=${someBudget.slice(0, 2)}&limit=20`),
      as: 'staff',
    },
    {
      name: 'budget balance',
      shot: get(`budget/${someBudget}/balance?amount=250000`),
      as: 'staff',
    },
    {
      name: 'requests, staff mode',
      shot: get(`requests/user/${staff.id}?page=1&per_page=10`),
      as: 'staff',
    },
    { name: 'requests, admin mode', shot: get(admin), as: 'finance' },
    {
      name: 'requests, admin, search a name',
      shot: get(`${admin}&search=${encodeURIComponent(staff.fullname.toLowerCase())}`),
      as: 'finance',
    },
    {
      name: 'requests, admin, status pending',
      shot: get(`${admin}&status=pending`),
      as: 'finance',
    },
    { name: 'summary (staff)', shot: get(`requests/summary/${staff.id}`), as: 'staff' },
    {
      name: 'pending list (finance officer)',
      shot: get(`requests/finance_officer/pending/${finance.id}`),
      as: 'finance',
    },
    { name: 'one request', shot: get(`requests/request/${oneRequest.id}`), as: 'finance' },
    {
      name: 'retirements, staff mode',
      shot: get('retirement/requests?role=user&page=1'),
      as: 'staff',
    },
    {
      name: 'retirements, admin mode',
      shot: get('retirement/requests?role=finance_officer&page=1'),
      as: 'finance',
    },
    {
      // Home's 'Retirements Pending Your Review' (docs/decisions/0039).
      name: 'retirement queue (finance officer)',
      shot: get('retirement/pending?page=1&per_page=10'),
      as: 'finance',
    },
  ];
}
