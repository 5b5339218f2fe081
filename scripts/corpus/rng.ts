/** A small seeded PRNG (mulberry32) so the corpus is the same on every run and machine. */
export interface Rng {
  next(): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(probability: number): boolean;
  /** Money-like amount with two decimals in [min, max]. */
  amount(min: number, max: number): number;
  digits(count: number): string;
  fork(label: string): Rng;
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

export function createRng(seed: number | string): Rng {
  let state = typeof seed === 'number' ? seed >>> 0 : hash(seed);
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[int(0, items.length - 1)]!;
    },
    chance: (probability) => next() < probability,
    amount: (min, max) => Math.round((min + next() * (max - min)) * 100) / 100,
    digits: (count) => Array.from({ length: count }, (_, i) => String(i === 0 ? int(1, 9) : int(0, 9))).join(''),
    fork: (label) => createRng((state ^ hash(label)) >>> 0),
  };
}
