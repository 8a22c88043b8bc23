/** A term for LIKE, lower-cased, with the wildcards a person might type taken literally. */
function literal(term: string): string {
  return term.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** A LIKE pattern matching a term anywhere (`%term%`). */
export function containsPattern(term: string): string {
  return `%${literal(term)}%`;
}

/** A LIKE pattern matching what starts with a term (`term%`). */
export function startsWithPattern(term: string): string {
  return `${literal(term)}%`;
}
