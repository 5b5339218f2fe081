/**
 * How to pay a bill: the payee's IBAN and BIC and the payment reference the payer must quote, read from a document's
 * text (or its e-invoice). Every IBAN and structured reference is checked by its check digits, so a misread digit
 * gives no field rather than a transfer to a wrong account.
 */

import type { Doc } from './text.ts';
import { latin, WORD_END, WORD_START } from './text.ts';

/** IBAN lengths per country, from the ISO 13616 IBAN registry. */
const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BI: 27, BR: 29, BY: 28, CH: 21, CR: 22,
  CY: 28, CZ: 24, DE: 22, DJ: 27, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18, FK: 18, FO: 18, FR: 27, GB: 22,
  GE: 22, GI: 23, GL: 18, GR: 27, GT: 28, HN: 28, HR: 21, HU: 28, IE: 22, IL: 23, IQ: 23, IS: 26, IT: 27, JO: 30,
  KW: 30, KZ: 20, LB: 28, LC: 32, LI: 21, LT: 20, LU: 20, LV: 21, LY: 25, MC: 27, MD: 24, ME: 22, MK: 19, MN: 20,
  MR: 27, MT: 31, MU: 30, NI: 28, NL: 18, NO: 15, OM: 23, PK: 24, PL: 28, PS: 29, PT: 25, QA: 29, RO: 24, RS: 22,
  RU: 33, SA: 24, SC: 31, SD: 18, SE: 24, SI: 19, SK: 24, SM: 27, SO: 23, ST: 25, SV: 28, TL: 23, TN: 24, TR: 26,
  UA: 29, VA: 22, VG: 24, XK: 20, YE: 30,
};

/** Letters as ISO 7064 counts them (A = 10 … Z = 35), then the remainder mod 97, digit by digit (no big integers). */
function mod97(alphanumeric: string): number {
  let rest = 0;
  for (const char of alphanumeric) {
    const digits = /[A-Z]/.test(char) ? String(char.charCodeAt(0) - 55) : char;
    for (const digit of digits) rest = (rest * 10 + Number(digit)) % 97;
  }
  return rest;
}

/** An IBAN (compact, upper case) of a registered country, of that country's length, with right check digits. */
export function isValidIban(iban: string): boolean {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban) || IBAN_LENGTHS[iban.slice(0, 2)] !== iban.length) return false;
  return mod97(iban.slice(4) + iban.slice(0, 4)) === 1;
}

/** An ISO 11649 creditor reference ("RF18 5390 0754 7034", compact): RF, two check digits, up to 21 characters. */
export function isValidCreditorReference(reference: string): boolean {
  if (!/^RF\d{2}[A-Z0-9]{1,21}$/.test(reference)) return false;
  return mod97(reference.slice(4) + reference.slice(0, 4)) === 1;
}

/** A BIC (ISO 9362): bank, country, location and an optional branch; the country one of the IBAN registry's or a major one. */
export function isValidBic(bic: string): boolean {
  const m = /^[A-Z]{4}([A-Z]{2})[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/.exec(bic);
  return m !== null && (m[1]! in IBAN_LENGTHS || BIC_ONLY_COUNTRIES.has(m[1]!));
}

/** Countries without IBANs whose banks a European bill may still name. */
const BIC_ONLY_COUNTRIES = new Set(['US', 'CA', 'AU', 'NZ', 'JP', 'CN', 'HK', 'SG', 'IN', 'MY', 'ZA', 'MX', 'AR', 'CL', 'KR', 'TW', 'TH', 'ID', 'PH', 'VN']);

/** "DE89370400440532013000" → "DE89 3704 0044 0532 0130 00", as banks print it. */
export function groupIban(iban: string): string {
  return iban.replace(/(.{4})(?=.)/g, '$1 ');
}

/** A Belgian structured communication (+++123/4567/89012+++): ten digits and their mod-97 check (0 counts as 97). */
function isValidBelgianCommunication(digits: string): boolean {
  const check = Number(BigInt(digits.slice(0, 10)) % 97n) || 97;
  return check === Number(digits.slice(10));
}

export interface FoundPaymentField {
  value: string;
  confidence: number;
  /** The line it was read from. */
  evidence: string;
}

export interface PaymentDetails {
  iban: FoundPaymentField | null;
  bic: FoundPaymentField | null;
  paymentReference: FoundPaymentField | null;
}

/**
 * Lines about the reader's own account: a direct debit takes the money from it, so that IBAN is no payee's
 * ("wird von Ihrem Konto … abgebucht", "your account", "prélevé sur votre compte", a mandate).
 */
const READERS_ACCOUNT = new RegExp(latin(`${WORD_START}(?:your|ihre?[mnrs]?|votre|vos|uw|je|su|sus|vostr[oa]|tuo|debtor|schuldner|d[ée]biteur|mandat\\p{L}*|mandate|lastschrift\\p{L}*|direct debit|abgebucht|eingezogen|pr[ée]l[eè]v\\p{L}*|incasso|domiciliaci[óo]n|addebit\\p{L}*)${WORD_END}`), 'i');

const IBAN_CANDIDATE = /(?<![A-Z0-9])([A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,34})/g;
const IBAN_LABEL = /\bIBAN\b/i;
const BIC_VALUE = new RegExp(latin(`${WORD_START}(?:BIC|SWIFT|BIC\\/SWIFT|SWIFT\\/BIC|Swift-Code|BIC-Code)${WORD_END}[\\s.:#-]*(?:code)?[\\s.:#-]*([A-Z]{6}[A-Z0-9]{2}(?:[A-Z0-9]{3})?)(?![A-Z0-9])`), 'i');
const CREDITOR_REFERENCE = /(?<![A-Z0-9])(RF\d{2}(?: ?[A-Z0-9]){1,21})(?![A-Z0-9])/g;
const BELGIAN_COMMUNICATION = /(?:\+{3}|\*{3})\s*(\d{3})\s*\/\s*(\d{4})\s*\/\s*(\d{5})\s*(?:\+{3}|\*{3})/;
/** Labels a payer's reference stands after: purpose of payment, payment reference, in six languages. */
const REFERENCE_LABEL = new RegExp(latin(`${WORD_START}(?:verwendungszweck|zahlungsreferenz|zahlungsgrund|überweisungszweck|payment reference|reference for payment|remittance (?:information|reference)|payment ref\\.?|r[ée]f[ée]rence (?:de|du) (?:paiement|virement)|motif du virement|communication|betalingskenmerk|betalingsreferentie|omschrijving|referencia de pago|causale(?: del (?:bonifico|versamento))?|riferimento (?:di|del) pagamento)${WORD_END}\\s*[:#-]?\\s*(.*)$`), 'i');

const compact = (value: string): string => value.replace(/\s+/g, '').toUpperCase();
/** The EPC QR code's remittance text holds at most 140 characters; a longer line is no reference. */
const MAX_REFERENCE_LENGTH = 140;

/**
 * The payee's IBAN (the first valid one not on a line about the reader's account; a labelled one first), the BIC
 * after a BIC/SWIFT label, and the payment reference: a valid ISO 11649 creditor reference, a valid Belgian structured
 * communication, else the text after a purpose-of-payment label.
 */
export function findPaymentDetails(doc: Doc): PaymentDetails {
  return { iban: findIban(doc.lines), bic: findBic(doc.lines), paymentReference: findPaymentReference(doc.lines) };
}

function findIban(lines: readonly string[]): FoundPaymentField | null {
  let unlabelled: FoundPaymentField | null = null;
  for (const line of lines) {
    if (READERS_ACCOUNT.test(line)) continue;
    for (const m of line.toUpperCase().matchAll(IBAN_CANDIDATE)) {
      const candidate = compact(m[1]!);
      const length = IBAN_LENGTHS[candidate.slice(0, 2)];
      // Text glued to an IBAN's end ("DE89 … 3000 BIC …") is cut at the country's length.
      const iban = length ? candidate.slice(0, length) : candidate;
      if (!isValidIban(iban)) continue;
      if (IBAN_LABEL.test(line)) return { value: iban, confidence: 0.95, evidence: line };
      unlabelled ??= { value: iban, confidence: 0.8, evidence: line };
    }
  }
  return unlabelled;
}

function findBic(lines: readonly string[]): FoundPaymentField | null {
  for (const line of lines) {
    if (READERS_ACCOUNT.test(line)) continue;
    const m = BIC_VALUE.exec(line);
    const bic = m ? m[1]!.toUpperCase() : null;
    if (bic && isValidBic(bic)) return { value: bic, confidence: 0.9, evidence: line };
  }
  return null;
}

function findPaymentReference(lines: readonly string[]): FoundPaymentField | null {
  for (const line of lines) {
    for (const m of line.toUpperCase().matchAll(CREDITOR_REFERENCE)) {
      const reference = compact(m[1]!);
      if (isValidCreditorReference(reference)) return { value: reference, confidence: 0.95, evidence: line };
    }
  }
  for (const line of lines) {
    const m = BELGIAN_COMMUNICATION.exec(line);
    if (m && isValidBelgianCommunication(m[1]! + m[2]! + m[3]!)) {
      return { value: `+++${m[1]}/${m[2]}/${m[3]}+++`, confidence: 0.9, evidence: line };
    }
  }
  for (const [index, line] of lines.entries()) {
    const m = REFERENCE_LABEL.exec(line);
    if (!m) continue;
    // The value stands after the label, or alone on the next line when the label ends its own.
    const value = (m[1]!.trim() || (lines[index + 1] ?? '').trim()).replace(/^[:#-]\s*/, '');
    // A reference to quote holds a number; a label in running text ("quote the payment reference") does not.
    if (value.length >= 3 && value.length <= MAX_REFERENCE_LENGTH && /\d/.test(value)) {
      return { value, confidence: 0.8, evidence: m[1]!.trim() ? line : `${line} ${value}` };
    }
  }
  return null;
}
