/**
 * Language of a text among the six the archive reads (de, en, fr, nl, es, it), by counting frequent function words,
 * typical word endings and letters. Cheap (one pass over the first few thousand words), and robust to text OCR read
 * with another language's model: function words survive a wrong model, accents may not, so letters weigh least.
 * 'und' when unsure.
 */

import { L } from './text.ts';

/** The languages this module tells apart (ISO 639-1), which are also the ones OCR has models for. */
export const LANGUAGES = ['de', 'en', 'fr', 'nl', 'es', 'it'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Function words first, then the words of business letters, invoices and receipts. */
const STOP_WORDS: Readonly<Record<Language, readonly string[]>> = {
  de: [
    'der',
    'die',
    'das',
    'und',
    'ist',
    'nicht',
    'mit',
    'den',
    'dem',
    'des',
    'ein',
    'eine',
    'einen',
    'einem',
    'einer',
    'für',
    'auf',
    'sie',
    'ihr',
    'ihre',
    'ihren',
    'wir',
    'bei',
    'von',
    'zu',
    'zur',
    'zum',
    'im',
    'bis',
    'oder',
    'auch',
    'wird',
    'werden',
    'sind',
    'haben',
    'bitte',
    'vom',
    'am',
    'uns',
    'unter',
    'nach',
    'über',
    'sehr',
    'ich',
    'sich',
    'es',
    'als',
    'aus',
    'noch',
    'wie',
    'nur',
    'kann',
    'dass',
    'wenn',
    'sowie',
    'anbei',
    'geehrte',
    'geehrter',
    'damen',
    'herren',
    'freundlichen',
    'grüßen',
    'rechnung',
    'betrag',
    'gesamt',
    'summe',
    'inkl',
    'zzgl',
    'mwst',
    'ust',
    'netto',
    'brutto',
    'zahlbar',
    'innerhalb',
    'tagen',
    'herrn',
    'frau',
    'straße',
    'str',
    'kundennummer',
    'rechnungsnummer',
    'bankverbindung',
    'steuernummer',
    'vielen',
    'dank',
  ],
  en: [
    'the',
    'and',
    'of',
    'to',
    'is',
    'in',
    'for',
    'on',
    'with',
    'your',
    'you',
    'we',
    'our',
    'this',
    'that',
    'are',
    'be',
    'by',
    'from',
    'at',
    'as',
    'please',
    'will',
    'have',
    'has',
    'an',
    'or',
    'not',
    'it',
    'if',
    'all',
    'any',
    'can',
    'may',
    'been',
    'was',
    'were',
    'which',
    'dear',
    'sincerely',
    'regards',
    'thank',
    'thanks',
    'invoice',
    'amount',
    'date',
    'due',
    'payment',
    'number',
    'account',
    'street',
    'ltd',
    'inc',
    'qty',
    'tax',
    'subtotal',
    'change',
    'cash',
    'balance',
    'paid',
    'receipt',
    'bill',
    'price',
    'item',
    'items',
    'rounding',
    'customer',
  ],
  fr: [
    'le',
    'la',
    'les',
    'et',
    'des',
    'du',
    'de',
    'un',
    'une',
    'est',
    'pour',
    'dans',
    'sur',
    'avec',
    'vous',
    'nous',
    'votre',
    'vos',
    'notre',
    'nos',
    'par',
    'pas',
    'au',
    'aux',
    'sont',
    'ce',
    'cette',
    'qui',
    'que',
    'il',
    'elle',
    'en',
    'ou',
    'ne',
    'plus',
    'leur',
    'être',
    'été',
    'à',
    'facture',
    'montant',
    'merci',
    'madame',
    'monsieur',
    'veuillez',
    'ci',
    'joint',
    'règlement',
    'échéance',
    'ttc',
    'ht',
    'tva',
    'net',
    'payer',
    'client',
    'numéro',
    'prix',
  ],
  nl: [
    'de',
    'het',
    'een',
    'en',
    'van',
    'is',
    'niet',
    'op',
    'met',
    'voor',
    'zijn',
    'u',
    'uw',
    'wij',
    'we',
    'aan',
    'bij',
    'als',
    'dat',
    'die',
    'dit',
    'er',
    'ook',
    'naar',
    'om',
    'te',
    'tot',
    'of',
    'door',
    'deze',
    'wordt',
    'worden',
    'kunt',
    'graag',
    'geachte',
    'heer',
    'mevrouw',
    'vriendelijke',
    'groet',
    'factuur',
    'factuurnummer',
    'factuurdatum',
    'bedrag',
    'totaal',
    'btw',
    'datum',
    'betaling',
    'vervaldatum',
    'klantnummer',
    'bedankt',
    'prijs',
    'excl',
    'incl',
  ],
  es: [
    'el',
    'la',
    'los',
    'las',
    'y',
    'de',
    'del',
    'que',
    'en',
    'un',
    'una',
    'por',
    'para',
    'con',
    'su',
    'sus',
    'es',
    'al',
    'se',
    'lo',
    'le',
    'no',
    'o',
    'como',
    'más',
    'este',
    'esta',
    'usted',
    'señor',
    'señora',
    'estimado',
    'factura',
    'importe',
    'fecha',
    'total',
    'iva',
    'pago',
    'vencimiento',
    'gracias',
    'cliente',
    'número',
    'precio',
  ],
  it: [
    'il',
    'lo',
    'la',
    'gli',
    'le',
    'e',
    'di',
    'del',
    'della',
    'dei',
    'delle',
    'che',
    'un',
    'una',
    'per',
    'con',
    'non',
    'sono',
    'alla',
    'al',
    'nel',
    'nella',
    'è',
    'si',
    'da',
    'come',
    'questo',
    'questa',
    'suo',
    'sua',
    'gentile',
    'fattura',
    'importo',
    'data',
    'totale',
    'iva',
    'pagamento',
    'scadenza',
    'grazie',
    'cliente',
    'numero',
    'prezzo',
  ],
};

/** Word endings (and, for Dutch, letter pairs) typical of each language, counted on words of five letters or more. */
const WORD_SHAPES: Readonly<Record<Language, RegExp>> = {
  // German compounds end in their head noun: the heads of statements and bills no other of the six shares.
  de: /(?:ung|ungen|keit|heit|schaft|lich|isch|chen|straße|betrag|auszug|inhaber|wert)$|sch|ß/u,
  en: /(?:tion|tions|ing|ment|ments|ness|ship|ly|ance|ence|ity|ed)$/u,
  fr: /(?:tion|ment|eur|eux|euse|ique|ée|ées|aire|oir|ais|ait)$/u,
  nl: /ij|aa|uu|(?:heid|lijk|lijke|tje|tjes)$/u,
  es: /(?:ción|ciones|dad|dades|ado|ados|ada|adas|ía|ío)$/u,
  it: /(?:zione|zioni|mente|ato|ata|ati|ate|ità|etto|ella|ino|ini)$/u,
};

/** Letters that belong to some of the languages only. */
const LETTERS: ReadonlyArray<readonly [RegExp, readonly Language[]]> = [
  [/[äöüß]/giu, ['de']],
  [/[çœêâîûë]/giu, ['fr']],
  [/[ñ¿¡áíóú]/giu, ['es']],
  [/[ìò]/giu, ['it']],
  [/[àè]/giu, ['fr', 'it']],
];

const WORDS = new RegExp(`[${L}]+`, 'gu');
/** The first few thousand words decide; counting a whole book would only cost time. */
const MAX_WORDS = 4000;
/** Enough characters for MAX_WORDS words of any of the six languages, so a long text is never scanned whole. */
const MAX_CHARS = MAX_WORDS * 12;

/** Word → the languages it is a function word of, each weighted by how many languages share it. */
const LOOKUP = new Map<string, Array<{ language: Language; weight: number }>>();
for (const language of LANGUAGES) {
  for (const word of STOP_WORDS[language]) LOOKUP.set(word, [...(LOOKUP.get(word) ?? []), { language, weight: 0 }]);
}
/** A lone letter is as often OCR noise (a speck, a bullet) as a word: it counts a quarter. */
const LONE_LETTER = 0.25;
for (const [word, entries] of LOOKUP) {
  for (const entry of entries) entry.weight = (word.length === 1 ? LONE_LETTER : 1) / entries.length;
}

export interface LanguageGuess {
  language: string;
  confidence: number;
}

export interface LanguageOptions {
  /** Only these languages are considered (ISO 639-1); others present are ignored. All six when absent or empty. */
  among?: readonly string[];
}

/** Each language's evidence in a text (higher is more), for the languages considered. */
export function languageScores(text: string, options: LanguageOptions = {}): Map<Language, number> {
  const considered = LANGUAGES.filter((l) => !options.among?.length || options.among.includes(l));
  const scores = new Map<Language, number>(considered.map((l) => [l, 0]));
  const add = (language: Language, value: number): void => {
    const score = scores.get(language);
    if (score !== undefined) scores.set(language, score + value);
  };
  const words = (text.slice(0, MAX_CHARS).toLowerCase().match(WORDS) ?? []).slice(0, MAX_WORDS);
  const shapes = new Map<Language, number>();
  for (const word of words) {
    for (const { language, weight } of LOOKUP.get(word) ?? []) add(language, weight);
    if (word.length < 5) continue;
    for (const language of considered)
      if (WORD_SHAPES[language].test(word)) shapes.set(language, (shapes.get(language) ?? 0) + 1);
  }
  // Endings and letters are hints: capped, so a long list or table cannot outvote the sentences.
  for (const [language, count] of shapes) add(language, Math.min(count, 20) * 0.4);
  const sample = words.join(' ');
  for (const [letters, languages] of LETTERS) {
    const count = Math.min(sample.match(letters)?.length ?? 0, 20);
    for (const language of languages) add(language, (count * 0.3) / languages.length);
  }
  return scores;
}

/**
 * The language of a text (ISO 639-1), 'und' when the evidence is thin or split; null when the text has too few
 * words to say anything.
 */
export function detectLanguage(text: string, options: LanguageOptions = {}): LanguageGuess | null {
  const wordCount = text.slice(0, MAX_CHARS).match(WORDS)?.length ?? 0;
  if (wordCount < 3) return null;
  const ranked = [...languageScores(text, options).entries()].sort((a, b) => b[1] - a[1]);
  const [top, second] = ranked;
  if (!top) return null;
  if (ranked.length === 1) return { language: top[0], confidence: 1 };
  if (top[1] < 2) return { language: 'und', confidence: 0.2 };
  const margin = top[1] / (top[1] + (second?.[1] ?? 0));
  if (margin < 0.55) return { language: 'und', confidence: 0.3 };
  const support = Math.min(1, top[1] / 12);
  return { language: top[0], confidence: Math.round((0.4 + 0.55 * margin * support) * 100) / 100 };
}
