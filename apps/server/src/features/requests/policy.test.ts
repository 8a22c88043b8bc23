import { roles, type Role } from '@imprest/domain/enums.ts';
import { describe, expect, it } from 'vitest';
import {
  canListAllRequests,
  canReadRequest,
  canResubmitRequest,
  canSeeUserRequests,
  canSubmitRequest,
  type PolicyActor,
} from './policy.ts';

const owner = '00000000-0000-4000-8000-000000000001';
const other = '00000000-0000-4000-8000-000000000002';
const actor = (role: Role, options: { id?: string; isLocked?: boolean } = {}): PolicyActor => ({
  id: options.id ?? owner,
  role,
  is_locked: options.isLocked ?? false,
});
const request = { request_owner_id: owner };

describe('request policy', () => {
  it.each([
    // actor, action, allowed
    ['unlocked staff submits', canSubmitRequest(actor('staff')), true],
    ['locked staff submits', canSubmitRequest(actor('staff', { isLocked: true })), false],
    ['locked director submits', canSubmitRequest(actor('director', { isLocked: true })), false],
    ['owner reads', canReadRequest(actor('staff'), request), true],
    ['other staff reads', canReadRequest(actor('staff', { id: other }), request), false],
    ['admin reads', canReadRequest(actor('admin', { id: other }), request), true],
    [
      'finance officer reads',
      canReadRequest(actor('finance_officer', { id: other }), request),
      true,
    ],
    ['owner resubmits', canResubmitRequest(actor('staff'), request), true],
    [
      'locked owner resubmits',
      canResubmitRequest(actor('staff', { isLocked: true }), request),
      false,
    ],
    [
      'director resubmits another’s',
      canResubmitRequest(actor('director', { id: other }), request),
      false,
    ],
    ['staff sees own list', canSeeUserRequests(actor('staff'), owner), true],
    ['staff sees another’s list', canSeeUserRequests(actor('staff'), other), false],
    ['admin sees another’s list', canSeeUserRequests(actor('admin'), other), true],
  ])('%s → %s', (_name, allowed, expected) => {
    expect(allowed).toBe(expected);
  });

  it.each(roles.map((role) => [role, role !== 'staff'] as const))(
    '%s lists all requests → %s',
    (role, expected) => {
      expect(canListAllRequests(actor(role))).toBe(expected);
    },
  );
});
