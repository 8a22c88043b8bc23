import type { MailDeliveryResponse } from '@imprest/domain/api/settings.ts';

/** Spec §8: the failure of adding users, followed by the server's error. */
export const createUserFailed = 'Error! Failed to create user';

/** Spec §8: deleting a user failed. */
export const deleteUserFailed = 'Error deleting user';

/** Spec §8: restricting or unrestricting a user failed. */
export const restrictUserFailed = 'Error restricting user';

/** Spec §5, §8: the new password and its confirmation differ. */
export const passwordsDiffer = 'Error! Password have to match';

/** Spec §2 New users: the success panel. */
export const userAdded = 'User added!';

/** Spec §2 User view: the success panel. */
export const userUpdated = 'User Update Successful';

/**
 * Where a new user's invitation went. Without `SMTP_URL` the server sends no e-mail but writes
 * each one to a file in its mail folder (docs/decisions/0037): saying "sent" there would leave the
 * admin waiting for an e-mail that never leaves the server.
 */
export function invitationSent(email: string, delivery: MailDeliveryResponse | undefined): string {
  if (delivery?.delivery !== 'folder')
    return `An invitation e-mail has been sent to ${email} to choose a password.`;
  return `Imprest sends no e-mail until SMTP_URL is set, so the invitation to ${email} was written to a file in ${delivery.folder} on the server. Open it and pass its link on: the link lets them choose a password.`;
}

/** Users added from a CSV, each invited to choose a password; where the invitations went. */
export function usersAdded(count: number, delivery: MailDeliveryResponse | undefined): string {
  const added = `${count} ${count === 1 ? 'user has' : 'users have'} been added.`;
  if (delivery?.delivery !== 'folder') return added;
  return `${added} Imprest sends no e-mail until SMTP_URL is set, so their invitations were written to files in ${delivery.folder} on the server. Open them and pass each link on: the link lets them choose a password.`;
}
