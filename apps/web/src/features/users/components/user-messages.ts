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
