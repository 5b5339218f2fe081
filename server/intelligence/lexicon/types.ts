/**
 * The shape of one language's vocabulary. Every list holds regex sources in lower case, written with (?:) groups
 * only, so they can be combined with text.ts's combineLabels and run on lower-cased text; month and weekday names are
 * plain words (accents included; readers add the unaccented spelling OCR often gives).
 */

import type { Language } from '../language.ts';

export interface LabelVocabulary {
  /** The amount to pay or paid: "total", "montant TTC", "te betalen". */
  total: readonly string[];
  /** Before tax or before discounts: never the amount of the document. */
  subtotal: readonly string[];
  tax: readonly string[];
  dueDate: readonly string[];
  documentDate: readonly string[];
  invoiceNumber: readonly string[];
  creditNoteNumber: readonly string[];
  orderNumber: readonly string[];
  customerNumber: readonly string[];
  /** Tax and company register identifiers: never a document's reference. */
  vatId: readonly string[];
  /** The words that introduce payment terms ("payable within", "zahlbar", "à régler sous"). */
  paymentTerms: readonly string[];
  contractStart: readonly string[];
  contractEnd: readonly string[];
  noticePeriod: readonly string[];
  /** The length of a contract's term ("Laufzeit: 24 Monate", "durée de deux ans"): with its start, it gives the end. */
  contractTerm: readonly string[];
  /** A contract's own number ("contrat n°", "contractnummer"). German and English: references.ts. */
  contractNumber: readonly string[];
  /** An insurance policy's number ("Polisnummer", "Póliza n.º"). */
  policyNumber: readonly string[];
  /** A quotation's number ("Offertenummer", "Presupuesto n.º"). */
  offerNumber: readonly string[];
  /** A statement's own number ("Relevé numéro", "Afschriftnummer"). */
  statementNumber: readonly string[];
  /** A letter's or notice's file reference ("notre référence", "ons kenmerk"). German and English: references.ts. */
  fileReference: readonly string[];
  /** Words before a sender's name or in its legal block ("from", "seller", "fournisseur", "leverancier"). */
  sender: readonly string[];
}

/** Heading words that name a document of each kind. */
export interface DocumentTypeWords {
  invoice: readonly string[];
  receipt: readonly string[];
  creditNote: readonly string[];
  /** Payment reminders and dunning letters. */
  reminder: readonly string[];
  contract: readonly string[];
  payslip: readonly string[];
  taxNotice: readonly string[];
  policy: readonly string[];
  bankStatement: readonly string[];
  offer: readonly string[];
}

/** Units of a period ("14 Tage", "30 jours", "2 maanden"), as regex sources. */
export interface PeriodUnits {
  day: string;
  businessDay: string;
  week: string;
  month: string;
  year: string;
}

/** What shows a bill was paid on the spot: how it was paid, the till, the thanks. Regex sources. */
export interface TillWords {
  paid: readonly string[];
  till: readonly string[];
  thanks: readonly string[];
}

export interface Lexicon {
  language: Language;
  /** Twelve entries, January first: the full name, then its abbreviations. */
  months: ReadonlyArray<readonly string[]>;
  /** Seven entries, Monday first: the full name, then its abbreviations of three letters or more. */
  weekdays: ReadonlyArray<readonly string[]>;
  /** Count words of payment terms and notice periods ("fourteen", "dreißig", "trente"). */
  numberWords: Readonly<Record<string, number>>;
  periodUnits: PeriodUnits;
  /** Words between a number and its unit or around it ("within", "binnen", "sous", "entro"), regex sources. */
  within: readonly string[];
  /** Payment at once: "due on receipt", "à réception", "bij ontvangst". */
  immediate: readonly string[];
  /** The day of the month a day number may carry: "1st", "1er", "1º", "1e". */
  ordinal: string;
  /** Words that join day, month and year ("de" in "7 de marzo de 2021", "of" in "7th of March"). */
  dateJoiners: readonly string[];
  labels: LabelVocabulary;
  documentTypes: DocumentTypeWords;
  till: TillWords;
}
