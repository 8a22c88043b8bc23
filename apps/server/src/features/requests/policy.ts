import type { Role } from '@imprest/domain/enums.ts';
import { isAdmin } from '@imprest/domain/permissions.ts';

/** What the request policies need to know of the user (always of the request's organisation). */
export type PolicyActor = { id: string; role: Role; is_locked: boolean };
type OwnedRequest = { request_owner_id: string };

/** Every unlocked user may submit requests (decisions §9). */
export function canSubmitRequest(actor: PolicyActor): boolean {
  return !actor.is_locked;
}

/** Staff see only their own requests; admin sees any request of the organisation (spec §6). */
export function canReadRequest(actor: PolicyActor, request: OwnedRequest): boolean {
  return actor.id === request.request_owner_id || isAdmin(actor.role);
}

/** Only the owner, while unlocked, resubmits a request (spec §6, decisions §9). */
export function canResubmitRequest(actor: PolicyActor, request: OwnedRequest): boolean {
  return actor.id === request.request_owner_id && !actor.is_locked;
}

/** Admin mode lists and downloads every request of the organisation (decisions §9). */
export function canListAllRequests(actor: PolicyActor): boolean {
  return isAdmin(actor.role);
}

/** A user's own requests, counts and downloads: that user, or an admin (decisions §9). */
export function canSeeUserRequests(actor: PolicyActor, userId: string): boolean {
  return actor.id === userId || isAdmin(actor.role);
}
