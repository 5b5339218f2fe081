import type { SqlDialect } from './sql.ts';

/**
 * The few SQL spellings that differ between the back ends, for general code that cannot avoid them. Everything else
 * the service writes is the portable subset described in sql.ts.
 */

/** An aggregate of `expr` as JSON array text ('[]' when there are no rows). */
export function jsonArrayAgg(dialect: SqlDialect, expr: string): string {
  return dialect === 'sqlite' ? `json_group_array(${expr})` : `coalesce(json_agg(${expr})::text, '[]')`;
}

/**
 * `expr` for ORDER BY in code point order: SQLite's BINARY collation, which PostgreSQL gives only when asked, as its
 * default is the database's locale (an ICU or en_US database would put "apple" before "Banana").
 */
export function inCodePointOrder(dialect: SqlDialect, expr: string): string {
  return dialect === 'sqlite' ? expr : `${expr} COLLATE "C"`;
}

/** An aggregate of the text `expr` joined by `separator` (a SQL string literal); NULL when there are no rows. */
export function joinedText(dialect: SqlDialect, expr: string, separator: string): string {
  return dialect === 'sqlite' ? `group_concat(${expr}, ${separator})` : `string_agg(${expr}, ${separator})`;
}

/**
 * A statement that holds a lock on a text key (its one `?` parameter) until the transaction ends, so transactions
 * about the same thing run one after another even on different instances (PostgreSQL: a transaction-level advisory
 * lock); null on SQLite, whose write transaction is already the only writer.
 */
export function transactionKeyLock(dialect: SqlDialect): string | null {
  return dialect === 'sqlite' ? null : 'SELECT pg_advisory_xact_lock(hashtextextended(?, 0))';
}

/**
 * A FROM item `ids` with one row per element of a JSON array given as one `?` parameter, the element in column
 * `value`: one statement (and one compiled plan) for any number of ids.
 */
export function jsonArrayRows(dialect: SqlDialect, elements: 'integer' | 'text'): string {
  if (dialect === 'sqlite') return 'json_each(?) AS ids';
  const cast = elements === 'integer' ? 'value::bigint' : 'value';
  return `(SELECT ${cast} AS value FROM json_array_elements_text(CAST(? AS json))) AS ids`;
}
