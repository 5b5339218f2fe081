import { UUID_PATTERN } from '../../common/archive-schemas.ts';
import { isCalendarDate, parseIsoTimestamp } from '../../common/dates.ts';
import { badRequest } from './http-error.ts';

/** A query parameter parser: takes the raw string, returns the value or throws a message naming what is expected. */
type Parser<T> = (raw: string) => T;

const invalid = (name: string, expected: string) => badRequest(`Invalid parameter ${name}: ${expected}`);

export const UUID = UUID_PATTERN;

export const param = {
  integer:
    (min: number, max: number) =>
    (name: string): Parser<number> =>
    (raw) => {
      if (!/^\d+$/.test(raw)) throw invalid(name, `expected an integer ${rangeText(min, max)}`);
      const n = Number(raw);
      if (n < min || n > max) throw invalid(name, `expected an integer ${rangeText(min, max, n > max)}`);
      return n;
    },
  oneOf:
    <T extends string>(values: readonly T[]) =>
    (name: string): Parser<T> =>
    (raw) => {
      if (!(values as readonly string[]).includes(raw)) throw invalid(name, `expected one of ${values.join(', ')}`);
      return raw as T;
    },
  uuid:
    () =>
    (name: string): Parser<string> =>
    (raw) => {
      if (!UUID.test(raw)) throw invalid(name, 'expected a uuid');
      return raw.toLowerCase();
    },
  timestamp:
    () =>
    (name: string): Parser<string> =>
    (raw) => {
      const iso = parseIsoTimestamp(raw);
      if (!iso) throw invalid(name, 'expected an ISO 8601 timestamp');
      return iso;
    },
  date:
    () =>
    (name: string): Parser<string> =>
    (raw) => {
      if (!isCalendarDate(raw)) throw invalid(name, 'expected a date YYYY-MM-DD');
      return raw;
    },
  boolean:
    () =>
    (name: string): Parser<boolean> =>
    (raw) => {
      if (raw === 'true' || raw === '1') return true;
      if (raw === 'false' || raw === '0') return false;
      throw invalid(name, 'expected true or false');
    },
};

/** The range in words; an open-ended one names its ceiling only to a value above it. */
function rangeText(min: number, max: number, above = false): string {
  return max === Number.MAX_SAFE_INTEGER && !above ? `of at least ${min}` : `from ${min} to ${max}`;
}

/** A client's parameter name as echoed in an error: bounded, so a 10 KB name does not come back as a 10 KB message. */
function shownName(name: string): string {
  return name.length > 64 ? `${name.slice(0, 64)}…` : name;
}

type Spec = Record<string, { parse: (name: string) => Parser<unknown>; default?: unknown }>;
type Parsed<S extends Spec> = {
  [K in keyof S]: S[K] extends { parse: (name: string) => Parser<infer T>; default: infer D }
    ? T | D
    : S[K] extends { parse: (name: string) => Parser<infer T> }
      ? T | undefined
      : never;
};

/**
 * Validates a query string against a spec: every known parameter parsed, defaults applied,
 * unknown or repeated parameters rejected (a typo must not silently widen a result).
 */
export function parseQuery<S extends Spec>(params: URLSearchParams, spec: S): Parsed<S> {
  const out: Record<string, unknown> = {};
  for (const name of new Set(params.keys())) {
    if (!Object.hasOwn(spec, name)) throw badRequest(`Unknown parameter ${shownName(name)}`);
    if (params.getAll(name).length > 1) throw badRequest(`Invalid parameter ${name}: given more than once`);
  }
  for (const [name, rule] of Object.entries(spec)) {
    const raw = params.get(name);
    out[name] = raw === null || raw === '' ? rule.default : rule.parse(name)(raw);
  }
  return out as Parsed<S>;
}
