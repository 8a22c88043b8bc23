import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';

/**
 * A value PostgreSQL draws inside a transaction, for statements the server writes before the
 * draw's answer comes back (docs/decisions/0054): the approval number, drawn under its
 * organisation's sequence lock and written by the same write's later statements, so the lock is
 * held only while PostgreSQL runs them, not across a turn of the server.
 *
 * The drawing statement keeps the value as a setting local to its transaction (`keep`); a later
 * statement of the transaction reads it back (`value`). Text made in the server before the draw
 * (an e-mail, the audit trail's changes) holds the value's `marker`, which PostgreSQL replaces
 * with the value as it writes the text (`into`). The marker is random for each process and made
 * of letters, digits and dashes only, so JSON and HTML write it unchanged, and no input holds it
 * but by a guess of 122 random bits.
 */
export class DrawnValue {
  readonly marker = `drawn-${randomUUID()}`;

  /** `setting`: a custom setting's name, with a dot (`imprest.approval_number`). */
  constructor(private readonly setting: string) {}

  /** SQL that keeps `value` until the transaction ends, and answers it. */
  keep(value: SQL): SQL<string> {
    return sql<string>`set_config(${this.setting}, ${value}, true)`;
  }

  /**
   * The value kept earlier in the transaction. Without a draw in it, the statement fails: the
   * setting is unknown, or, on a connection that drew in an earlier transaction, '', which is
   * refused here (a cast that fails, naming the setting) rather than written.
   */
  get value(): SQL<string> {
    const kept = sql`current_setting(${this.setting})`;
    const refusal = `nothing was drawn in this transaction for ${this.setting}`;
    return sql<string>`(CASE WHEN ${kept} <> '' THEN ${kept} ELSE (${refusal} || ${kept})::int::text END)`;
  }

  /** `text` as written to the database: with the value where the marker is. */
  into(text: string): SQL<string> | string {
    return text.includes(this.marker)
      ? sql<string>`replace(${text}, ${this.marker}, ${this.value})`
      : text;
  }
}
