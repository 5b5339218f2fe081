/** Up to five lowercase tags: what the document is, a finer kind, who sent it, and the year. */

import type { EventType } from '../../common/archive-types.ts';

const TAG_WORDS: Record<EventType, { de: string; en: string }> = {
  invoice: { de: 'rechnung', en: 'invoice' },
  credit_note: { de: 'gutschrift', en: 'credit note' },
  receipt: { de: 'quittung', en: 'receipt' },
  contract: { de: 'vertrag', en: 'contract' },
  policy: { de: 'versicherung', en: 'insurance' },
  notice: { de: 'mitteilung', en: 'notice' },
  payslip: { de: 'gehaltsabrechnung', en: 'payslip' },
  statement: { de: 'kontoauszug', en: 'statement' },
  offer: { de: 'angebot', en: 'quote' },
  letter: { de: 'brief', en: 'letter' },
};

const GENERIC = new Set([
  'die',
  'der',
  'das',
  'the',
  'deutsche',
  'german',
  'first',
  'dr',
  'med',
  'herr',
  'frau',
  'mr',
  'mrs',
  'ms',
  'gmbh',
  'ltd',
  'inc',
  'llc',
  'plc',
  'co',
  'kg',
  'ag',
  'und',
  'and',
  'von',
  'van',
  'de',
  'of',
  'firma',
  'gruppe',
  'group',
]);

export interface TagParts {
  type: EventType;
  language: string | null;
  keyword: string | null;
  sender: string | null;
  date: string | null;
}

export function makeTags(parts: TagParts): string[] {
  const tags: string[] = [];
  const add = (tag: string | null | undefined): void => {
    const clean = tag
      ?.toLowerCase()
      .replace(/[^\p{L}\p{N}\- ]/gu, '')
      .trim();
    if (clean && clean.length >= 2 && !tags.includes(clean) && tags.length < 5) tags.push(clean);
  };
  const words = TAG_WORDS[parts.type];
  const typeTag = parts.language === 'de' ? words.de : words.en;
  // "notice" says little when the document calls itself "Mahnung" or "Steuerbescheid".
  if (parts.type === 'notice' && parts.keyword) add(parts.keyword);
  else {
    add(typeTag);
    add(parts.keyword);
  }
  if (parts.sender) {
    const word = parts.sender
      .split(/[\s,·|/]+/)
      .map((w) => w.replace(/[.()]/g, ''))
      .find((w) => /\p{L}{3,}/u.test(w) && !GENERIC.has(w.toLowerCase()));
    add(word);
  }
  if (parts.date) add(parts.date.slice(0, 4));
  return tags;
}
