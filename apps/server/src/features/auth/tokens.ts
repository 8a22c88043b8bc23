import { errors, jwtVerify, SignJWT } from 'jose';

export const tokenLifetimeSeconds = 12 * 60 * 60;

/** `ver` is the user's token_version when signed; a raised version ends the session (docs/decisions/0010). */
export type TokenClaims = { sub: string; org: string; ver: number };

/** Signs a session token: HS256, `sub` = user id, with `exp` (decisions §8). */
export async function signToken(secret: Uint8Array, claims: TokenClaims): Promise<string> {
  return new SignJWT({ org: claims.org, ver: claims.ver })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuedAt()
    .setExpirationTime(`${tokenLifetimeSeconds}s`)
    .sign(secret);
}

/** The claims of a valid token, or null for a missing, forged, unsigned, other-algorithm or expired one. */
export async function verifyToken(secret: Uint8Array, token: string): Promise<TokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] });
    if (typeof payload.sub !== 'string' || typeof payload.org !== 'string') return null;
    if (typeof payload.ver !== 'number' || !Number.isInteger(payload.ver)) return null;
    return { sub: payload.sub, org: payload.org, ver: payload.ver };
  } catch (error) {
    if (error instanceof errors.JOSEError || error instanceof TypeError) return null;
    throw error;
  }
}
