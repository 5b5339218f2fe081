import { z } from 'zod';
import type { ChatMessage, JsonSchemaFormat } from './chat-client.ts';

/**
 * The page text sent is cut here: the fields sit on the first pages, and small local models (Ollama's default
 * context is a few thousand tokens) lose the instructions when the prompt outgrows their context.
 */
export const MAX_PROMPT_TEXT_CHARS = 8000;

const nullableString = (description: string) => ({ type: ['string', 'null'], description });

/** The answer's JSON schema (strict: every field present, null when the document does not print it). */
export const EXTRACTION_FORMAT: JsonSchemaFormat = {
  name: 'document_fields',
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['sender_name', 'reference_number', 'document_date', 'due_date', 'amount', 'currency'],
    properties: {
      sender_name: nullableString('The company or person who issued the document (never the recipient), as printed.'),
      reference_number: nullableString(
        'The invoice, receipt or document number exactly as printed (not an order, customer or VAT number).',
      ),
      document_date: nullableString('The date the document was issued, YYYY-MM-DD.'),
      due_date: nullableString('The date payment is due, YYYY-MM-DD, only when printed.'),
      amount: { type: ['number', 'null'], description: 'The grand total to pay (after tax), as a plain number.' },
      currency: nullableString('The ISO 4217 code of the amount, e.g. EUR, USD, GBP, CHF, MYR, INR.'),
    },
  },
};

/** The answer as read: each field checked alone, so one malformed field costs only itself. */
export interface LlmAnswer {
  sender_name: string | null;
  reference_number: string | null;
  document_date: string | null;
  due_date: string | null;
  amount: number | null;
  currency: string | null;
}

const text = z.string().trim().min(1).max(200);
const answerFields = {
  sender_name: text,
  reference_number: text,
  document_date: text,
  due_date: text,
  amount: z.union([
    z.number().finite(),
    z
      .string()
      .trim()
      .regex(/^-?\d+(?:\.\d+)?$/)
      .transform(Number),
  ]),
  currency: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{3}$/)
    .transform((code) => code.toUpperCase()),
} as const;

export function readAnswer(raw: unknown): LlmAnswer {
  const object = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const pick = <K extends keyof LlmAnswer>(key: K): LlmAnswer[K] => {
    const result = answerFields[key].safeParse(object[key]);
    return (result.success ? result.data : null) as LlmAnswer[K];
  };
  return {
    sender_name: pick('sender_name'),
    reference_number: pick('reference_number'),
    document_date: pick('document_date'),
    due_date: pick('due_date'),
    amount: pick('amount'),
    currency: pick('currency'),
  };
}

const INSTRUCTIONS = `You read one business document (invoice, receipt, credit note, reminder, contract, letter) in any language
and answer with a JSON object with exactly these keys: sender_name, reference_number, document_date, due_date, amount,
currency. Copy values as the document prints them; use null for anything it does not print, never guess or compute.
Dates as YYYY-MM-DD. amount is the grand total to pay, a plain number with a dot for decimals. currency is an ISO 4217
code. The candidates found by simple rules may be wrong; trust the document text.`;

/** The chat for one document: the instructions, the rules' candidates, then the text (cut at MAX_PROMPT_TEXT_CHARS). */
export function extractionMessages(documentText: string, candidates: Record<string, unknown>): ChatMessage[] {
  const pageText =
    documentText.length > MAX_PROMPT_TEXT_CHARS ? `${documentText.slice(0, MAX_PROMPT_TEXT_CHARS)}\n[…]` : documentText;
  return [
    { role: 'system', content: INSTRUCTIONS },
    {
      role: 'user',
      content: `Candidates from the rules (JSON): ${JSON.stringify(candidates)}\n\nDocument text:\n"""\n${pageText}\n"""`,
    },
  ];
}
