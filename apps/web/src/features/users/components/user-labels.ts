import {
  departments,
  roleLabels,
  roles,
  systemRoleLabels,
  systemRoles,
  type Role,
} from '@imprest/domain/enums.ts';
import { departmentLabel } from '../../../lib/request-labels.ts';

/** A position in words, tolerating values this build does not know. */
export function roleLabel(role: string): string {
  return roleLabels[role as Role] ?? role;
}

export const departmentOptions = departments.map((value) => ({
  value,
  label: departmentLabel(value),
}));

/** Spec §5: only a super admin (the director) may give the director position. */
export function positionOptions(canGiveDirector: boolean) {
  return roles
    .filter((role) => canGiveDirector || role !== 'director')
    .map((value) => ({ value, label: roleLabels[value] }));
}

export const systemRoleOptions = systemRoles.map((value) => ({
  value,
  label: systemRoleLabels[value],
}));
