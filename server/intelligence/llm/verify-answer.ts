import { findDates } from '../dates.ts';
import { dominantCurrency, findMoney, type MoneyToken } from '../money.ts';
import { makeDoc } from '../text.ts';
import type { LlmAnswer } from './extraction-prompt.ts';

/** The answer's values that the document prints; each one the rules' readers can find in the text. */
export interface VerifiedFields {
  sender_name?: string;
  reference_number?: string;
  document_date?: string;
  due_date?: string;
  amount?: { value: number; currency: string };
}

export interface Verification {
  fields: VerifiedFields;
  /** Fields the model named that the document does not print (so they were dropped). */
  dropped: Array<keyof VerifiedFields>;
}

/**
 * Keeps only what the document prints: an amount among its money figures (any of the number formats the money reader
 * knows), in a currency it names (else the rules' currency); a date among its dates, read day first and month first;
 * the sender's name in its text (case and spacing aside); the reference verbatim.
 */
export function verifyAnswer(
  answer: LlmAnswer,
  text: string,
  options: { today: string; rulesCurrency: string | null },
): Verification {
  const fields: VerifiedFields = {};
  const dropped: Verification['dropped'] = [];
  const doc = makeDoc(text);
  const dates = [
    ...findDates(doc, { monthFirst: false, today: options.today }),
    ...findDates(doc, { monthFirst: true, today: options.today }),
  ];
  const printedDates = new Set(dates.map((date) => date.iso));

  const check = <K extends keyof VerifiedFields>(
    key: K,
    value: VerifiedFields[K] | null | undefined,
    printed: boolean,
  ): void => {
    if (value === null || value === undefined) return;
    if (printed) fields[key] = value;
    else dropped.push(key);
  };

  check('document_date', answer.document_date, answer.document_date !== null && printedDates.has(answer.document_date));
  check('due_date', answer.due_date, answer.due_date !== null && printedDates.has(answer.due_date));

  const reference = answer.reference_number;
  check('reference_number', reference, reference !== null && /\d/.test(reference) && text.includes(reference));

  const sender = answer.sender_name?.replace(/\s+/g, ' ').replace(/[\s,;:]+$/u, '') ?? null;
  check('sender_name', sender, sender !== null && /\p{L}.*\p{L}/u.test(sender) && loose(text).includes(loose(sender)));

  if (answer.amount !== null) {
    // Dates are not money: "12.03.2026" must not make 12.03 a printed amount.
    const blocked = new Map<number, Array<readonly [number, number]>>();
    for (const date of dates) blocked.set(date.line, [...(blocked.get(date.line) ?? []), [date.start, date.end]]);
    const tokens = [...findMoney(doc, blocked).values()].flat();
    const cents = Math.round(Math.abs(answer.amount) * 100);
    const printed = tokens.some((token) => Math.round(Math.abs(token.value) * 100) === cents);
    const currency =
      answer.currency && currencyPrinted(answer.currency, tokens, text) ? answer.currency : options.rulesCurrency;
    check('amount', { value: answer.amount, currency: currency ?? '' }, printed && currency !== null);
  }
  return { fields, dropped };
}

function currencyPrinted(code: string, tokens: readonly MoneyToken[], text: string): boolean {
  return (
    tokens.some((token) => token.currency === code) ||
    new RegExp(`(?<![A-Za-z])${code}(?![A-Za-z])`).test(text) ||
    dominantCurrency(text) === code
  );
}

const loose = (value: string): string => value.normalize('NFKC').toLocaleLowerCase().replace(/\s+/g, ' ').trim();
