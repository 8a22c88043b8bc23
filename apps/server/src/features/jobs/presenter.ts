import type { LockOverdueResponse } from '@imprest/domain/api/jobs.ts';
import type { LockRun } from './service.ts';

/** The lock job's answer: the day it judged by and whom it locked and unlocked, by name. */
export function presentLockRun(run: LockRun): LockOverdueResponse {
  const person = (user: { id: string; fullname: string }) => ({
    user_id: user.id,
    fullname: user.fullname,
  });
  return {
    as_of: run.asOf,
    locked: run.locked.map(person),
    unlocked: run.unlocked.map(person),
  };
}
