import type { PageLayout } from '../../server/intelligence/layout-types.ts';
import { findMoney } from '../../server/intelligence/money.ts';
import { makeDoc } from '../../server/intelligence/text.ts';
import { understand, type Understanding } from '../../server/intelligence/understand.ts';

type Values = { [K in keyof Understanding]?: NonNullable<Understanding[K]>['value'] };

export interface Sample {
  name: string;
  filename: string;
  text: string;
  /** The fields a person reads from the document; each must come out exactly so. */
  expect: Values;
  /** Fields that must not be suggested at all. */
  absent?: Array<keyof Understanding>;
}

/** The categories of the space the samples are filed into. */
export const CATEGORIES = [
  'Rechnungen',
  'Versicherung',
  'Steuern',
  'Bank',
  'Gehalt',
  'Verträge',
  'Insurance',
  'Sonstiges',
];
export const TODAY = '2027-01-20';

/** What understand() reads from a scanned page's text (and, when given, the page's layout). */
export const readScan = (text: string, layout?: PageLayout[]) =>
  understand({ text, filename: 'scan.jpg', categories: CATEGORIES, einvoice: null, today: TODAY, layout });

/** [value, currency] of every money token in a text. */
export const moneyTokens = (text: string): Array<[number, string | null]> =>
  [...findMoney(makeDoc(text), new Map()).values()].flat().map((t) => [t.value, t.currency]);
