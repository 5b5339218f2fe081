/**
 * How to pay a bill: the payee's IBAN and BIC and the payment reference the payer must quote, read from a document's
 * text (or its e-invoice). Every IBAN and structured reference is checked by its check digits, so a misread digit
 * gives no field rather than a transfer to a wrong account.
 */

import { ibanIn, isValidBic, isValidCreditorReference } from '../../common/payment-codes.ts';
import type { Doc } from './text.ts';
import { latin, WORD_END, WORD_START } from './text.ts';

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
const READERS_ACCOUNT = new RegExp(
  latin(
    `${WORD_START}(?:your|ihre?[mnrs]?|votre|vos|uw|je|su|sus|vostr[oa]|tuo|debtor|schuldner|d[ée]biteur|mandat\\p{L}*|mandate|lastschrift\\p{L}*|direct debit|abgebucht|eingezogen|pr[ée]l[eè]v\\p{L}*|incasso|domiciliaci[óo]n|addebit\\p{L}*)${WORD_END}`,
  ),
  'i',
);

const IBAN_CANDIDATE = /(?<![A-Z0-9])([A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,34})/g;
const IBAN_LABEL = /\bIBAN\b/i;
const BIC_VALUE = new RegExp(
  latin(
    `${WORD_START}(?:BIC|SWIFT|BIC\\/SWIFT|SWIFT\\/BIC|Swift-Code|BIC-Code)${WORD_END}[\\s.:#-]*(?:code)?[\\s.:#-]*([A-Z]{6}[A-Z0-9]{2}(?:[A-Z0-9]{3})?)(?![A-Z0-9])`,
  ),
  'i',
);
const CREDITOR_REFERENCE = /(?<![A-Z0-9])(RF\d{2}(?: ?[A-Z0-9]){1,21})(?![A-Z0-9])/g;
const BELGIAN_COMMUNICATION = /(?:\+{3}|\*{3})\s*(\d{3})\s*\/\s*(\d{4})\s*\/\s*(\d{5})\s*(?:\+{3}|\*{3})/;
/** Labels a payer's reference stands after: purpose of payment, payment reference, in six languages. */
const REFERENCE_LABEL = new RegExp(
  latin(
    `${WORD_START}(?:verwendungszweck|zahlungsreferenz|zahlungsgrund|überweisungszweck|payment reference|reference for payment|remittance (?:information|reference)|payment ref\\.?|r[ée]f[ée]rence (?:de|du) (?:paiement|virement)|motif du virement|communication|betalingskenmerk|betalingsreferentie|omschrijving|referencia de pago|causale(?: del (?:bonifico|versamento))?|riferimento (?:di|del) pagamento)${WORD_END}\\s*[:#-]?\\s*(.*)$`,
  ),
  'i',
);

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
      const iban = ibanIn(compact(m[1]!));
      if (!iban) continue;
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
