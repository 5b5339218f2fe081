/** Picks one of a space's categories by its name, its usual synonyms and what the document is. */

import type { EventType } from '../../common/archive-types.ts';

export interface CategoryPick {
  name: string;
  confidence: number;
  evidence: string;
}

interface Concept {
  words: readonly string[];
  types: readonly EventType[];
}

/** Word stems (folded: lowercase, no diacritics) that name one topic in German and English. */
const CONCEPTS: readonly Concept[] = [
  {
    words: ['versicherung', 'insurance', 'police', 'policy', 'policen', 'assurance', 'haftpflicht', 'kasko'],
    types: ['policy'],
  },
  {
    words: ['rechnung', 'invoice', 'bill', 'ausgabe', 'expense', 'zahlung', 'payment', 'beleg'],
    types: ['invoice', 'credit_note', 'receipt'],
  },
  { words: ['steuer', 'tax', 'finanzamt', 'fiskus', 'irs', 'hmrc'], types: [] },
  {
    words: [
      'bank',
      'konto',
      'finanz',
      'finance',
      'banking',
      'account',
      'depot',
      'kredit',
      'credit',
      'geld',
      'money',
      'investment',
    ],
    types: ['statement'],
  },
  {
    words: [
      'gehalt',
      'lohn',
      'entgelt',
      'payslip',
      'payroll',
      'salary',
      'arbeit',
      'job',
      'employment',
      'beruf',
      'work',
      'wage',
    ],
    types: ['payslip'],
  },
  { words: ['vertrag', 'vertrage', 'contract', 'agreement', 'vereinbarung'], types: ['contract'] },
  {
    words: [
      'gesundheit',
      'arzt',
      'krankenkasse',
      'krankenversicherung',
      'health',
      'medical',
      'doctor',
      'medizin',
      'apotheke',
      'pharmacy',
    ],
    types: [],
  },
  {
    words: [
      'wohnung',
      'miete',
      'haus',
      'housing',
      'rent',
      'home',
      'immobilie',
      'nebenkosten',
      'vermieter',
      'landlord',
      'property',
    ],
    types: [],
  },
  { words: ['auto', 'kfz', 'fahrzeug', 'car', 'vehicle', 'motor'], types: [] },
  {
    words: [
      'strom',
      'energie',
      'energy',
      'gas',
      'wasser',
      'water',
      'utilit',
      'stadtwerke',
      'electricity',
      'heizung',
      'nebenkosten',
    ],
    types: [],
  },
  { words: ['telefon', 'internet', 'mobilfunk', 'handy', 'telecom', 'phone', 'mobile', 'dsl', 'broadband'], types: [] },
  { words: ['quittung', 'kassenbon', 'receipt', 'einkauf', 'purchase', 'shopping', 'kauf'], types: ['receipt'] },
  { words: ['angebot', 'offer', 'quote', 'quotation', 'kostenvoranschlag'], types: ['offer'] },
  { words: ['behorde', 'amt', 'government', 'authorit', 'staat', 'bescheid', 'official'], types: ['notice'] },
  { words: ['rente', 'pension', 'altersvorsorge', 'retirement'], types: [] },
  { words: ['schule', 'studium', 'education', 'school', 'universitat', 'university', 'kita'], types: [] },
  { words: ['korrespondenz', 'brief', 'letter', 'post', 'mail', 'correspondence'], types: ['letter'] },
];

export function fold(text: string): string {
  return text
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '');
}

/** "Versicherungen" → "versicherung", "Verträge" → "vertrage", "Invoices" → "invoice". */
function stem(word: string): string {
  for (const suffix of ['en', 'es', 'e', 'n', 's']) {
    const base = word.slice(0, -suffix.length);
    if (word.endsWith(suffix) && base.length >= 4) return base;
  }
  return word;
}

function countOccurrences(haystack: string, needle: string): number {
  if (needle.length < 3) return 0;
  // Short stems only as whole words ("amt", "car"); longer ones also inside compounds ("Kfz-Versicherung").
  const re = needle.length < 5 ? new RegExp(`(?<![a-z])${needle}(?![a-z])`, 'g') : new RegExp(needle, 'g');
  return Math.min(5, (haystack.match(re) ?? []).length);
}

export function pickCategory(
  categories: readonly string[],
  folded: string,
  eventType: EventType | null,
  senderName: string | null,
): CategoryPick | null {
  const sender = senderName ? fold(senderName) : '';
  let best: { name: string; score: number; why: string } | null = null;
  for (const name of categories) {
    const words = fold(name)
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length >= 3)
      .map(stem);
    if (words.length === 0) continue;
    const concepts = CONCEPTS.filter((c) =>
      c.words.some((w) => words.some((word) => word.startsWith(w) || (w.length >= 5 && w.startsWith(word)))),
    );
    let score = 0;
    let why = '';
    for (const word of words) {
      const hits = countOccurrences(folded, word);
      if (hits > 0) {
        score += 1.5 + hits * 0.5;
        why ||= word;
      }
    }
    for (const concept of concepts) {
      if (eventType && concept.types.includes(eventType)) {
        score += 3;
        why ||= eventType;
      }
      const hits = concept.words.reduce((sum, w) => sum + countOccurrences(folded, w), 0);
      if (hits > 0) {
        score += Math.min(3, hits * 0.5);
        why ||= concept.words.find((w) => countOccurrences(folded, w) > 0) ?? '';
      }
      if (sender && concept.words.some((w) => sender.includes(w))) {
        score += 2;
        why ||= sender;
      }
    }
    if (!best || score > best.score) best = { name, score, why };
  }
  if (!best || best.score < 3) return null;
  return {
    name: best.name,
    confidence: Math.round(Math.min(0.85, 0.35 + best.score * 0.06) * 100) / 100,
    evidence: best.why,
  };
}
