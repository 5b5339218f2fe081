/**
 * Portable SQL writes parameters as `?`; PostgreSQL numbers them (`$1`, `$2`, …). A `?` inside a string literal, a
 * quoted identifier, a dollar-quoted body or a comment is text, not a parameter, and stays as it is.
 */
export interface TranslatedSql {
  text: string;
  parameterCount: number;
}

/** Statements are the service's own constant strings, plus a few shapes per IN-list length: a bounded cache suffices. */
const CACHE_LIMIT = 2000;
const cache = new Map<string, TranslatedSql>();

export function toNumberedPlaceholders(sql: string): TranslatedSql {
  const cached = cache.get(sql);
  if (cached) return cached;
  const translated = translate(sql);
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(sql, translated);
  return translated;
}

function translate(sql: string): TranslatedSql {
  let text = '';
  let count = 0;
  let i = 0;
  while (i < sql.length) {
    const end = endOfQuotedOrComment(sql, i);
    if (end > i) {
      text += sql.slice(i, end);
      i = end;
    } else if (sql[i] === '?') {
      text += `$${++count}`;
      i++;
    } else {
      text += sql[i];
      i++;
    }
  }
  return { text, parameterCount: count };
}

/** If a literal, quoted identifier or comment starts at i, the index just past it (or the end of sql); else i. */
function endOfQuotedOrComment(sql: string, i: number): number {
  const c = sql[i];
  const next = sql[i + 1];
  if (c === "'") {
    // E'…' strings escape with a backslash; standard strings only by doubling the quote.
    const backslashEscapes = i > 0 && /[eE]/.test(sql[i - 1]!) && !/[\w$]/.test(sql[i - 2] ?? ' ');
    return endOfQuoted(sql, i, "'", backslashEscapes);
  }
  if (c === '"') return endOfQuoted(sql, i, '"', false);
  if (c === '-' && next === '-') {
    const newline = sql.indexOf('\n', i);
    return newline === -1 ? sql.length : newline + 1;
  }
  if (c === '/' && next === '*') return endOfBlockComment(sql, i);
  if (c === '$') {
    const tag = /^\$([A-Za-z_][\w]*)?\$/.exec(sql.slice(i));
    // `$1` is a parameter or positional reference, not a tag; a tag cannot follow an identifier character.
    if (tag && !/[\w$]/.test(sql[i - 1] ?? ' ')) {
      const close = sql.indexOf(tag[0], i + tag[0].length);
      return close === -1 ? sql.length : close + tag[0].length;
    }
  }
  return i;
}

function endOfQuoted(sql: string, start: number, quote: string, backslashEscapes: boolean): number {
  let i = start + 1;
  while (i < sql.length) {
    if (backslashEscapes && sql[i] === '\\') i += 2;
    else if (sql[i] === quote && sql[i + 1] === quote) i += 2;
    else if (sql[i] === quote) return i + 1;
    else i++;
  }
  return sql.length;
}

/** PostgreSQL's block comments nest. */
function endOfBlockComment(sql: string, start: number): number {
  let depth = 0;
  let i = start;
  while (i < sql.length) {
    if (sql[i] === '/' && sql[i + 1] === '*') {
      depth++;
      i += 2;
    } else if (sql[i] === '*' && sql[i + 1] === '/') {
      depth--;
      i += 2;
      if (depth === 0) return i;
    } else i++;
  }
  return sql.length;
}
