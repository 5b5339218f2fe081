/**
 * The text of an EPC QR code ("GiroCode", EPC069-12 version 002) for a SEPA credit transfer in euros: banking apps
 * scan it and fill in payee, IBAN, amount and reference.
 */

import type { Amount } from '../../../common/archive-types.ts';
import { isValidBic, isValidCreditorReference, isValidIban } from '../../../common/payment-codes.ts';

export interface TransferFacts {
  /** The payee as the bill names it. */
  name: string | null;
  iban: string | null;
  bic: string | null;
  amount: Amount | null;
  /** An RF creditor reference goes into the structured field, any other text into the remittance text. */
  reference: string | null;
}

/** Why a bill gets no code: each reason is told to the user. */
export type EpcRefusal = 'no-iban' | 'no-name' | 'not-eur' | 'amount-range';

export type EpcResult = { ok: true; payload: string } | { ok: false; reason: EpcRefusal };

const MAX_NAME = 70;
const MAX_TEXT = 140;
/** The standard's bound of the whole payload, in UTF-8 bytes. */
export const MAX_PAYLOAD_BYTES = 331;
/** The standard's bounds of a transfer amount. */
const MIN_EUR = 0.01;
const MAX_EUR = 999_999_999.99;

const compact = (value: string): string => value.replace(/\s+/g, '').toUpperCase();
/** Line breaks would shift every later field of the code; a long name or text is cut to the field's length. */
const oneLine = (value: string, max: number): string => value.replace(/\s+/g, ' ').trim().slice(0, max);

/**
 * The payload, or why there is none: the code needs the payee's name and a valid IBAN, and an amount, if any, in euros
 * between 0.01 and 999,999,999.99 (a bill without an amount gives a code the payer completes). Fields: service tag BCD,
 * version 002, character set 1 (UTF-8), SCT, BIC (optional in version 002), name, IBAN, amount as `EUR12.30`,
 * purpose (empty), structured reference or remittance text; lines joined by LF, trailing empty ones left out.
 */
export function epcPayload(facts: TransferFacts): EpcResult {
  const iban = facts.iban ? compact(facts.iban) : '';
  if (!isValidIban(iban)) return { ok: false, reason: 'no-iban' };
  const name = facts.name ? oneLine(facts.name, MAX_NAME) : '';
  if (!name) return { ok: false, reason: 'no-name' };
  let amount = '';
  if (facts.amount) {
    if (facts.amount.currency !== 'EUR') return { ok: false, reason: 'not-eur' };
    if (facts.amount.value < MIN_EUR || facts.amount.value > MAX_EUR) return { ok: false, reason: 'amount-range' };
    amount = `EUR${facts.amount.value.toFixed(2)}`;
  }
  const bic = facts.bic && isValidBic(compact(facts.bic)) ? compact(facts.bic) : '';
  const reference = facts.reference ? compact(facts.reference) : '';
  const structured = isValidCreditorReference(reference) ? reference : '';
  const head = ['BCD', '002', '1', 'SCT', bic, name, iban, amount, '', structured].join('\n');
  const room = MAX_PAYLOAD_BYTES - utf8Length(head) - 1;
  const text = !structured && facts.reference ? cutToBytes(oneLine(facts.reference, MAX_TEXT), room) : '';
  const lines = [head, text];
  return { ok: true, payload: lines.join('\n').replace(/\n+$/, '') };
}

const encoder = new TextEncoder();
const utf8Length = (value: string): number => encoder.encode(value).length;

/** Long names in letters of two bytes leave less room for the text: it is cut by characters to the bytes left. */
function cutToBytes(value: string, bytes: number): string {
  let cut = value;
  while (utf8Length(cut) > bytes) cut = Array.from(cut).slice(0, -1).join('');
  return cut;
}
