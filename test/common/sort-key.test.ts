import { describe, expect, it } from 'vitest';
import { titleSortKey } from '../../common/sort-key.ts';

/** Sorts as the service and the library cache do: by key (byte order), ties by a stable second field. */
const sorted = (titles: readonly string[]): string[] =>
  titles
    .map((title) => ({ title, key: titleSortKey(title) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.title < b.title ? -1 : a.title > b.title ? 1 : 0))
    .map((t) => t.title);

describe('titleSortKey: titles in the order a person reads them', () => {
  it('ignores case', () => {
    expect(sorted(['Vertrag', 'rechnung', 'Angebot', 'zahlung'])).toEqual([
      'Angebot',
      'rechnung',
      'Vertrag',
      'zahlung',
    ]);
    expect(titleSortKey('Rechnung')).toBe(titleSortKey('RECHNUNG'));
  });

  it('folds accents and special letters: Ä with A, ß with ss', () => {
    expect(sorted(['Bank', 'Ärger', 'Apfel', 'Zoo'])).toEqual(['Apfel', 'Ärger', 'Bank', 'Zoo']);
    expect(titleSortKey('Äpfel')).toBe(titleSortKey('apfel'));
    expect(titleSortKey('Straße')).toBe(titleSortKey('Strasse'));
    expect(titleSortKey('Crème brûlée')).toBe(titleSortKey('creme brulee'));
    expect(titleSortKey('Øre Œuvre')).toBe(titleSortKey('ore oeuvre'));
  });

  it('orders numbers by value, wherever they stand', () => {
    expect(sorted(['Rechnung 10', 'Rechnung 2', 'Rechnung 1', 'Rechnung 100', 'Rechnung'])).toEqual([
      'Rechnung',
      'Rechnung 1',
      'Rechnung 2',
      'Rechnung 10',
      'Rechnung 100',
    ]);
    expect(sorted(['2026-11 Strom', '2026-2 Strom', '999 Euro', '1000 Euro'])).toEqual([
      '999 Euro',
      '1000 Euro',
      '2026-2 Strom',
      '2026-11 Strom',
    ]);
    expect(sorted(['v1.10', 'v1.9', 'v1.9.1'])).toEqual(['v1.9', 'v1.9.1', 'v1.10']);
    expect(titleSortKey('Rechnung 007')).toBe(titleSortKey('Rechnung 7'));
    expect(titleSortKey('Rechnung ２')).toBe(titleSortKey('Rechnung 2')); // full-width digit
  });

  it('puts numbers before letters and a shorter title before its continuations', () => {
    expect(sorted(['Brief', '3 Angebote', 'Brief an Bank'])).toEqual(['3 Angebote', 'Brief', 'Brief an Bank']);
  });

  it('treats runs of white-space as one space', () => {
    expect(titleSortKey('  Strom \t November ')).toBe(titleSortKey('Strom November'));
  });

  it('keeps numbers of any length in order and the key byte-comparable', () => {
    const long = '9'.repeat(150);
    expect(sorted([`A ${long}`, 'A 1'])).toEqual(['A 1', `A ${long}`]);
    expect(titleSortKey('')).toBe('');
  });
});
