import type { Role } from '@imprest/domain/enums.ts';

/** Who reads the whole audit trail and downloads it: the director (issue 15). */
export function canReadAuditTrail(actor: { role: Role }): boolean {
  return actor.role === 'director';
}
