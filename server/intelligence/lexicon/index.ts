/**
 * The vocabulary of the six languages the archive reads, one module each. Readers and selectors take the words of
 * the document's language when it is known, and of all six when it is not (a label in another language than the
 * body's is common: "Invoice / Facture / Rechnung").
 */

import type { Language } from '../language.ts';
import { de } from './de.ts';
import { en } from './en.ts';
import { es } from './es.ts';
import { fr } from './fr.ts';
import { it } from './it.ts';
import { nl } from './nl.ts';
import type { DocumentTypeWords, LabelVocabulary, Lexicon, TillWords } from './types.ts';

export type { DocumentTypeWords, LabelVocabulary, Lexicon, PeriodUnits, TillWords } from './types.ts';

export const LEXICONS: Readonly<Record<Language, Lexicon>> = { en, de, fr, nl, es, it };
const ALL: readonly Lexicon[] = Object.values(LEXICONS);

/** The lexicons of the given languages (unknown codes ignored), or all six when none is known. */
export function lexiconsFor(languages?: readonly (string | null | undefined)[]): readonly Lexicon[] {
  const chosen = (languages ?? []).flatMap((code) => (code && code in LEXICONS ? [LEXICONS[code as Language]] : []));
  return chosen.length > 0 ? chosen : ALL;
}

/** The same word without accents: OCR often loses them ("fevrier", "decembre"). */
export function withoutAccents(word: string): string {
  return word.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
}

/** Every regex source of one label kind across the given lexicons, longest first so alternations prefer them. */
export function labelSources(kind: keyof LabelVocabulary, lexicons: readonly Lexicon[] = ALL): string[] {
  return unique(lexicons.flatMap((lexicon) => lexicon.labels[kind]));
}

/** Every regex source of one document type across the given lexicons, longest first. */
export function documentTypeSources(kind: keyof DocumentTypeWords, lexicons: readonly Lexicon[] = ALL): string[] {
  return unique(lexicons.flatMap((lexicon) => lexicon.documentTypes[kind]));
}

/** Every regex source of one kind of paid-at-the-till evidence across the given lexicons, longest first. */
export function tillSources(kind: keyof TillWords, lexicons: readonly Lexicon[] = ALL): string[] {
  return unique(lexicons.flatMap((lexicon) => lexicon.till[kind]));
}

/** Month name or abbreviation (lower case, with and without accents) → 1..12. Names shared by languages agree. */
export function monthNumbers(lexicons: readonly Lexicon[] = ALL): Map<string, number> {
  const months = new Map<string, number>();
  for (const lexicon of lexicons) {
    lexicon.months.forEach((names, index) => {
      for (const name of names) {
        months.set(name, index + 1);
        months.set(withoutAccents(name), index + 1);
      }
    });
  }
  return months;
}

/** Weekday names and abbreviations of three letters or more (lower case, with and without accents). */
export function weekdayNames(lexicons: readonly Lexicon[] = ALL): string[] {
  return unique(lexicons.flatMap((lexicon) => lexicon.weekdays.flat().flatMap((name) => [name, withoutAccents(name)])));
}

/** Count words of all the given lexicons ("vierzehn" → 14, "trente" → 30). */
export function numberWords(lexicons: readonly Lexicon[] = ALL): Map<string, number> {
  return new Map(lexicons.flatMap((lexicon) => Object.entries(lexicon.numberWords)));
}

function unique(sources: readonly string[]): string[] {
  return [...new Set(sources)].sort((a, b) => b.length - a.length);
}
