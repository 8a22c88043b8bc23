import { hash, verify } from '@node-rs/argon2';

// OWASP password storage cheat sheet: argon2id, m=19 MiB, t=2, p=1.
// `algorithm: 2` is Algorithm.Argon2id (a const enum, which verbatimModuleSyntax cannot import).
const parameters = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 };

/** An argon2id hash of a password. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, parameters);
}

let dummyHash: Promise<string> | undefined;

/**
 * Whether a password matches a stored hash. With no hash (unknown account) it still spends the time
 * of one verification, so response time does not reveal which e-mail addresses exist.
 */
export async function verifyPassword(
  storedHash: string | null | undefined,
  password: string,
): Promise<boolean> {
  if (!storedHash) {
    dummyHash ??= hashPassword('imprest-dummy-password');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(storedHash, password).catch(() => false);
}
