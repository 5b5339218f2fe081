import pg from 'pg';

/**
 * How column values arrive, matching what node:sqlite gives the same portable SQL: bigint columns and count(*) as
 * numbers (never strings), numeric as a number, bytea as a plain Uint8Array.
 */
const INT8 = 20;
const NUMERIC = 1700;
const BYTEA = 17;

export function parseInt8(text: string): number {
  const value = Number(text);
  // Past 2^53 a number silently changes value; the archive's counters and ids never get there, so this is a bug.
  if (!Number.isSafeInteger(value)) throw new RangeError(`bigint value ${text} is beyond Number.MAX_SAFE_INTEGER`);
  return value;
}

const parseByteaBuffer = pg.types.getTypeParser(BYTEA, 'text') as (text: string) => Buffer;

export function parseBytea(text: string): Uint8Array {
  const buffer = parseByteaBuffer(text);
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

const PARSERS = new Map<number, (text: string) => unknown>([
  [INT8, parseInt8],
  [NUMERIC, Number],
  [BYTEA, parseBytea],
]);

export const PG_TYPE_PARSERS: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) =>
    (format ?? 'text') === 'text' && PARSERS.has(oid)
      ? PARSERS.get(oid)
      : pg.types.getTypeParser(oid, format as 'text')) as pg.CustomTypesConfig['getTypeParser'],
};
