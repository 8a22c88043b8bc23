import { createSigner, createVerifier, TokenError } from 'fast-jwt';

/** A token lives 12 hours unless renewed; renewal never carries it past its session's end. */
export const tokenLifetimeSeconds = 12 * 60 * 60;

/** `sid` names the session row the token belongs to (docs/decisions/0012). */
export type TokenClaims = { sub: string; org: string; sid: string };

type Codec = {
  sign: (payload: Record<string, unknown>) => string;
  verify: (token: string) => Record<string, unknown>;
};

/**
 * HS256 through node:crypto's HMAC, synchronous (fast-jwt), built once per secret: every API call
 * verifies a token and validate-token signs one, so neither imports a key nor waits for a
 * WebCrypto job per call (issue 13: jose did both, about a fifth of validate-token's CPU).
 */
const codecs = new WeakMap<Uint8Array, Codec>();

function codecOf(secret: Uint8Array): Codec {
  let codec = codecs.get(secret);
  if (!codec) {
    const key = Buffer.from(secret);
    codec = {
      // iat and exp are set by signToken itself.
      sign: createSigner({ key, algorithm: 'HS256', noTimestamp: true }),
      verify: createVerifier({
        key,
        algorithms: ['HS256'],
        requiredClaims: ['sub', 'org', 'sid', 'exp'],
        cache: false,
      }),
    };
    codecs.set(secret, codec);
  }
  return codec;
}

/**
 * Signs a session token: HS256, `sub` = user id, with `exp` (decisions §8) no later than
 * `notAfter`, the session's absolute end.
 */
export function signToken(secret: Uint8Array, claims: TokenClaims, notAfter?: Date): string {
  const nowSeconds = Math.floor(Date.now() / 1000);
  const expires = Math.min(
    nowSeconds + tokenLifetimeSeconds,
    notAfter ? Math.floor(notAfter.getTime() / 1000) : Number.POSITIVE_INFINITY,
  );
  return codecOf(secret).sign({
    org: claims.org,
    sid: claims.sid,
    sub: claims.sub,
    iat: nowSeconds,
    exp: expires,
  });
}

/** The claims of a valid token, or null for a missing, forged, unsigned, other-algorithm or expired one. */
export function verifyToken(secret: Uint8Array, token: string): TokenClaims | null {
  try {
    const { sub, org, sid } = codecOf(secret).verify(token);
    if (typeof sub !== 'string' || typeof org !== 'string' || typeof sid !== 'string') return null;
    return { sub, org, sid };
  } catch (error) {
    if (error instanceof TokenError) return null;
    throw error;
  }
}
