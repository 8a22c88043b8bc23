/*
 * Secrets that travel in URLs: the token of a reset or invitation link and the signature of a
 * file link. Logs and stored e-mails keep the rest of the URL and lose the value (the security
 * issue, finding 6). One pattern, valid both as a JavaScript and a PostgreSQL regular expression.
 */
export const secretInUrlPattern = String.raw`([?&;](token|signature)=)[^&\s"'<>]+`;

const secretInUrl = new RegExp(secretInUrlPattern, 'gi');

/** The text with every URL secret replaced by `[redacted]`. */
export function redactSecrets(text: string): string {
  return text.replace(secretInUrl, '$1[redacted]');
}
