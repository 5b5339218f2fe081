import { describe, expect, it } from 'vitest';
import { toNumberedPlaceholders } from '../../../server/db/postgres/placeholders.ts';

const text = (sql: string) => toNumberedPlaceholders(sql).text;

describe('? → $n placeholders for PostgreSQL', () => {
  it('numbers the parameters in order', () => {
    expect(toNumberedPlaceholders('SELECT * FROM t WHERE a = ? AND b IN (?, ?)')).toEqual({
      text: 'SELECT * FROM t WHERE a = $1 AND b IN ($2, $3)',
      parameterCount: 3,
    });
    expect(toNumberedPlaceholders('SELECT 1')).toEqual({ text: 'SELECT 1', parameterCount: 0 });
  });

  it('leaves ? in string literals alone, doubled quotes included', () => {
    expect(text("SELECT 'why?', ? FROM t WHERE x = 'it''s ? here' AND y = ?")).toBe(
      "SELECT 'why?', $1 FROM t WHERE x = 'it''s ? here' AND y = $2",
    );
  });

  it("knows E'…' strings escape quotes with a backslash, and a word ending in e before a quote is no E-string", () => {
    expect(text("SELECT E'a\\'?' , ?")).toBe("SELECT E'a\\'?' , $1");
    expect(text("SELECT * FROM t WHERE name = 'x\\' AND y = ?")).toBe("SELECT * FROM t WHERE name = 'x\\' AND y = $1");
    expect(text("SELECT ? FROM t WHERE type='?'")).toBe("SELECT $1 FROM t WHERE type='?'");
  });

  it('leaves ? in quoted identifiers alone', () => {
    expect(text('SELECT "odd?name", ? FROM "t""?"')).toBe('SELECT "odd?name", $1 FROM "t""?"');
  });

  it('leaves ? in line comments and in nested block comments alone', () => {
    expect(text('SELECT ? -- is it? yes\n, ?')).toBe('SELECT $1 -- is it? yes\n, $2');
    expect(text('SELECT /* a? /* b? */ still comment? */ ?')).toBe('SELECT /* a? /* b? */ still comment? */ $1');
    expect(text('SELECT 1 -- trailing?')).toBe('SELECT 1 -- trailing?');
  });

  it('leaves ? in dollar-quoted bodies alone, and does not take $1 for a tag', () => {
    expect(text('SELECT $$ what? $$, $tag$ and ? $$ inside $tag$, ?')).toBe(
      'SELECT $$ what? $$, $tag$ and ? $$ inside $tag$, $1',
    );
    expect(text('SELECT ?, $1x')).toBe('SELECT $1, $1x');
  });

  it('an unterminated literal swallows the rest, as the server will then reject it', () => {
    expect(toNumberedPlaceholders("SELECT 'open ? ")).toEqual({ text: "SELECT 'open ? ", parameterCount: 0 });
  });

  it('caches per SQL string', () => {
    const sql = 'SELECT ? AS cached';
    expect(toNumberedPlaceholders(sql)).toBe(toNumberedPlaceholders(sql));
  });
});
