import { errors, jwtVerify, SignJWT } from 'jose';

/** A token lives 12 hours unless renewed; renewal never carries it past its session's end. */
export const tokenLifetimeSeconds = 12 * 60 * 60;

/** `sid` names the session row the token belongs to (docs/decisions/0012). */
export type TokenClaims = { sub: string; org: string; sid: string };

/**
 * Signs a session token: HS256, `sub` = user id, with `exp` (decisions §8) no later than
 * `notAfter`, the session's absolute end.
 */
export async function signToken(
  secret: Uint8Array,
  claims: TokenClaims,
  notAfter?: Date,
): Promise<string> {
  const nowSeconds = Math.floor(Date.now() / 1000);
  const expires = Math.min(
    nowSeconds + tokenLifetimeSeconds,
    notAfter ? Math.floor(notAfter.getTime() / 1000) : Number.POSITIVE_INFINITY,
  );
  return new SignJWT({ org: claims.org, sid: claims.sid })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuedAt(nowSeconds)
    .setExpirationTime(expires)
    .sign(secret);
}

/** The claims of a valid token, or null for a missing, forged, unsigned, other-algorithm or expired one. */
export async function verifyToken(secret: Uint8Array, token: string): Promise<TokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] });
    const { sub, org, sid } = payload;
    if (typeof sub !== 'string' || typeof org !== 'string' || typeof sid !== 'string') return null;
    return { sub, org, sid };
  } catch (error) {
    if (error instanceof errors.JOSEError || error instanceof TypeError) return null;
    throw error;
  }
}
