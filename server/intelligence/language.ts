/** Language of a text by counting frequent function words. Good enough for business letters; 'und' when unsure. */

import { L } from './text.ts';

const STOP_WORDS: Record<string, readonly string[]> = {
  de: ['der', 'die', 'das', 'und', 'ist', 'nicht', 'mit', 'den', 'dem', 'des', 'ein', 'eine', 'einen', 'für', 'auf', 'sie',
    'ihr', 'ihre', 'ihren', 'wir', 'bei', 'von', 'zu', 'zur', 'zum', 'im', 'bis', 'oder', 'auch', 'wird', 'werden', 'sind',
    'haben', 'bitte', 'vom', 'am', 'uns', 'unter', 'nach', 'über', 'sehr', 'geehrte', 'geehrter', 'freundlichen', 'grüßen',
    'rechnung', 'betrag', 'datum', 'nummer', 'gesamt', 'summe', 'inkl', 'zzgl', 'mwst', 'herrn', 'frau', 'straße', 'str'],
  en: ['the', 'and', 'of', 'to', 'is', 'in', 'for', 'on', 'with', 'your', 'you', 'we', 'our', 'this', 'that', 'are', 'be',
    'by', 'from', 'at', 'as', 'please', 'will', 'have', 'has', 'an', 'or', 'not', 'dear', 'sincerely', 'regards', 'thank',
    'invoice', 'amount', 'date', 'total', 'due', 'payment', 'number', 'account', 'street', 'ltd', 'inc'],
  fr: ['le', 'la', 'les', 'et', 'des', 'du', 'un', 'une', 'est', 'pour', 'dans', 'sur', 'avec', 'vous', 'nous', 'votre',
    'par', 'pas', 'au', 'aux', 'sont', 'facture', 'montant', 'merci', 'madame', 'monsieur', 'veuillez'],
  es: ['el', 'la', 'los', 'las', 'y', 'de', 'del', 'que', 'en', 'un', 'una', 'por', 'para', 'con', 'su', 'es', 'al',
    'factura', 'importe', 'fecha', 'gracias', 'señor', 'usted'],
  it: ['il', 'lo', 'la', 'gli', 'le', 'e', 'di', 'del', 'della', 'che', 'un', 'una', 'per', 'con', 'non', 'sono', 'alla',
    'fattura', 'importo', 'data', 'grazie', 'gentile'],
  nl: ['de', 'het', 'een', 'en', 'van', 'is', 'niet', 'op', 'met', 'voor', 'zijn', 'u', 'uw', 'wij', 'aan', 'bij', 'factuur',
    'bedrag', 'datum', 'geachte', 'bedankt'],
};

const WORDS = new RegExp(`[${L}]+`, 'g');
const GERMAN_SUFFIX = /(?:ung|ungen|keit|heit|schaft|lich|isch|chen|auszug|betrag|nummer|datum|straße|str)$|sch/;
const ENGLISH_SUFFIX = /(?:tion|tions|ing|ment|ments|ness|ship|ly|ance|ence|ity)$/;
const LOOKUP = new Map<string, Map<string, number>>();
for (const [lang, words] of Object.entries(STOP_WORDS)) {
  for (const word of words) {
    const entry = LOOKUP.get(word) ?? new Map<string, number>();
    entry.set(lang, 1);
    LOOKUP.set(word, entry);
  }
}

export interface LanguageGuess { language: string; confidence: number }

/** Null when the text has too few words to say anything. */
export function detectLanguage(text: string): LanguageGuess | null {
  const words = text.toLowerCase().match(WORDS);
  if (!words || words.length < 3) return null;
  const scores = new Map<string, number>();
  // The first few thousand words decide; counting a whole book would only cost time.
  for (const word of words.slice(0, 4000)) {
    const langs = LOOKUP.get(word);
    if (!langs) continue;
    for (const lang of langs.keys()) scores.set(lang, (scores.get(lang) ?? 0) + 1);
  }
  // Umlauts, ß and typical suffixes are signs of German and English where lists and tables have few
  // function words.
  const germanLetters = (text.match(/[äöüß]/giu) ?? []).length;
  let germanSuffixes = 0, englishSuffixes = 0;
  for (const word of words.slice(0, 4000)) {
    if (word.length < 5) continue;
    if (GERMAN_SUFFIX.test(word)) germanSuffixes++;
    else if (ENGLISH_SUFFIX.test(word)) englishSuffixes++;
  }
  scores.set('de', (scores.get('de') ?? 0) + Math.min(germanLetters, 20) * 0.3 + Math.min(germanSuffixes, 20) * 0.5);
  scores.set('en', (scores.get('en') ?? 0) + Math.min(englishSuffixes, 20) * 0.5);
  const ranked = [...scores.entries()].sort((a, b) => b[1] - a[1]);
  const [top, second] = ranked;
  if (!top || top[1] < 2) return { language: 'und', confidence: 0.2 };
  const margin = top[1] / (top[1] + (second?.[1] ?? 0));
  if (margin < 0.55) return { language: 'und', confidence: 0.3 };
  const support = Math.min(1, top[1] / 12);
  return { language: top[0], confidence: Math.round((0.4 + 0.55 * margin * support) * 100) / 100 };
}
