/**
 * Document understanding: structured suggestions (title, dates, amount, parties, type …) from a document's text,
 * its file name and an embedded e-invoice. Pure and synchronous; upload metadata overrides all of it elsewhere.
 */

import type { EventType } from '../../common/archive-types.ts';
import { isValidIban } from '../../common/payment-codes.ts';
import { findAmounts, pickAmount, type AmountCandidate } from './amounts.ts';
import { fold, pickCategory } from './category.ts';
import { classify } from './classify.ts';
import { cellsOf, rejoinColumns, rejoinTableRows } from './columns.ts';
import { readContractTerms } from './contract-reader.ts';
import type { NoticePeriod } from './contract-terms.ts';
import { labelDates, pickDocumentDate, pickDueDate, pickTermEnd } from './date-fields.ts';
import { findDates, readsMonthFirst } from './dates.ts';
import type { EInvoice } from './einvoice.ts';
import { detectLanguage } from './language.ts';
import { labelValuePairs } from './layout/label-value.ts';
import { layoutLines } from './layout/lines.ts';
import { looksLikeReceipt, receiptMerchant } from './layout/receipt.ts';
import { findZones } from './layout/zones.ts';
import type { PageLayout } from './layout-types.ts';
import { findParties } from './parties.ts';
import { findPaymentDetails } from './payment-details.ts';
import { findReferences, pickReference, referenceKinds } from './references.ts';
import { makeTags } from './tags.ts';
import { hasTillShape } from './till-shape.ts';
import { evidence, letterCount, makeDoc } from './text.ts';
import { makeTitle } from './title.ts';

export type { EInvoice } from './einvoice.ts';

/**
 * 'llm': the optional language-model extractor (server/intelligence/llm/), a value the document prints. 'learned': what
 * a person corrected on an earlier document of the same sender (server/learning/).
 */
export type FieldSource = 'e-invoice' | 'text' | 'filename' | 'llm' | 'learned';

export interface ExtractedField<T = unknown> {
  value: T;
  source: FieldSource;
  /** 0..1: labelled and structured values score high, unlabelled guesses and defaults low. */
  confidence: number;
  /** The text the value was read from, at most 120 characters. */
  evidence?: string;
}

export interface UnderstandInput {
  text: string;
  filename: string;
  /** The names of the space's categories; the category suggestion is one of them or none. */
  categories: string[];
  einvoice: EInvoice | null;
  /** YYYY-MM-DD; bounds plausible dates and reads two-digit years. */
  today: string;
  /** Where the text stands on its pages (pdf.js items, OCR words); absent or empty for text without positions. */
  layout?: readonly PageLayout[];
}

export interface Understanding {
  title?: ExtractedField<string>;
  document_date?: ExtractedField<string>;
  language?: ExtractedField<'de' | 'en' | string>;
  category?: ExtractedField<string>;
  tags?: ExtractedField<string[]>;
  sender_name?: ExtractedField<string>;
  reference_number?: ExtractedField<string>;
  amount?: ExtractedField<{ value: number; currency: string }>;
  due_date?: ExtractedField<string>;
  event_type?: ExtractedField<EventType>;
  buyer_name?: ExtractedField<string>;
  /** How to pay (server/intelligence/payment-details.ts): the payee's IBAN (compact), BIC, the reference to quote. */
  iban?: ExtractedField<string>;
  bic?: ExtractedField<string>;
  payment_reference?: ExtractedField<string>;
  /** A contract's or policy's term (server/intelligence/contract-terms.ts): the event writer's notice deadline. */
  contract_start?: ExtractedField<string>;
  contract_end?: ExtractedField<string>;
  notice_period?: ExtractedField<NoticePeriod>;
}

/** UNTDID 1001 codes of credit notes. */
const CREDIT_NOTE_CODES = new Set(['81', '83', '261', '262', '296', '308', '381', '396', '420', '458', '532']);

const field = <T>(value: T, source: FieldSource, confidence: number, evidenceText?: string): ExtractedField<T> =>
  evidenceText ? { value, source, confidence, evidence: evidence(evidenceText) } : { value, source, confidence };

export function understand(input: UnderstandInput): Understanding {
  const result: Understanding = {};
  const text = input.text ?? '';
  const hasText = letterCount(text, 20) >= 20;
  const doc = makeDoc(text);
  const { lines } = doc;
  const e = input.einvoice;

  const guess = detectLanguage(text);
  const language = guess && guess.language !== 'und' ? guess.language : null;
  if (guess) result.language = field(guess.language, 'text', guess.confidence);

  const monthFirst = readsMonthFirst(text, language);
  // Fields are read from the text plus its label blocks paired with their values ("Policy number" … "PN-2048817").
  const positioned = hasText ? layoutLines(input.layout ?? []) : [];
  // Labels whose value stands under them, paired as the label blocks are.
  const rawLines = text.replace(/\r\n?/g, '\n').split('\n');
  const rejoined = hasText
    ? [...rejoinColumns(rawLines, input.today), ...rejoinTableRows(rawLines), ...labelValuePairs(positioned, text)]
    : [];
  const fieldDoc = rejoined.length > 0 ? makeDoc(`${text}\n${rejoined.join('\n')}`) : doc;
  const fieldLines = fieldDoc.lines;
  const dates = findDates(fieldDoc, { monthFirst, today: input.today });
  const blocked = new Map<number, Array<readonly [number, number]>>();
  for (const date of dates) blocked.set(date.line, [...(blocked.get(date.line) ?? []), [date.start, date.end]]);
  const amounts = findAmounts(fieldDoc, blocked);
  const cells = rawLines.map(cellsOf);
  const references = hasText ? findReferences(fieldDoc, cells) : [];

  const labelledDates = labelDates(fieldDoc, dates);
  const documentDate = pickDocumentDate(fieldLines, labelledDates, input.today);
  const documentDateIso = e?.issueDate ?? documentDate?.iso ?? null;
  const due = pickDueDate(fieldLines, labelledDates, documentDateIso);
  const tillRollPage = looksLikeReceipt(input.layout ?? []);
  const classification = classify(doc, {
    hasTotal: amounts.some((a) => a.label === 'due' || a.label === 'total'),
    hasDueDate: due !== null,
    referenceKinds: referenceKinds(references),
    tillShape: hasTillShape(fieldLines, amounts),
    tillRoll: tillRollPage || priceColumn(fieldLines, amounts),
    hasAmounts: amounts.filter((a) => a.decimals).length >= PRICED_AMOUNTS,
  });
  const eventType: EventType = e
    ? CREDIT_NOTE_CODES.has(e.typeCode)
      ? 'credit_note'
      : 'invoice'
    : classification.type;

  if (e) result.event_type = field(eventType, 'e-invoice', 1, `TypeCode ${e.typeCode}`);
  else if (hasText)
    result.event_type = field(eventType, 'text', classification.confidence, classification.heading ?? undefined);

  if (e) result.document_date = field(e.issueDate, 'e-invoice', 1, `IssueDate ${e.issueDate}`);
  else if (documentDate)
    result.document_date = field(documentDate.iso, 'text', documentDate.confidence, documentDate.evidence);
  else {
    const fromName = findDates(makeDoc(input.filename.replace(/[_]+/g, ' ')), { monthFirst, today: input.today })[0];
    if (fromName) result.document_date = field(fromName.iso, 'filename', 0.4, input.filename);
  }

  // A contract, policy or offer is due when its fixed term or validity ends; the first premium's date is only a fallback.
  const deadline = TERM_TYPES.has(eventType)
    ? (pickTermEnd(fieldLines, labelledDates, documentDateIso, eventType === 'offer') ?? due)
    : due;
  if (e?.dueDate) result.due_date = field(e.dueDate, 'e-invoice', 1, `DueDate ${e.dueDate}`);
  else if (deadline && hasDueDateMeaning(eventType))
    result.due_date = field(deadline.iso, 'text', deadline.confidence, deadline.evidence);

  if (e) {
    result.amount = field(
      { value: e.duePayable, currency: e.currency },
      'e-invoice',
      1,
      `DuePayableAmount ${e.duePayable} ${e.currency}`,
    );
  } else {
    const amount = pickAmount(fieldLines, amounts, { eventType, language, text });
    if (amount)
      result.amount = field(
        { value: amount.value, currency: amount.currency },
        'text',
        amount.confidence,
        amount.evidence,
      );
  }

  const reference = pickReference(fieldLines, references, eventType);
  if (e) result.reference_number = field(e.invoiceNumber, 'e-invoice', 1, `Invoice number ${e.invoiceNumber}`);
  else if (reference)
    result.reference_number = field(reference.value, 'text', reference.confidence, reference.evidence);

  if (hasText && CONTRACT_TYPES.has(eventType)) {
    const terms = readContractTerms(fieldDoc, dates);
    // Below a labelled due date's confidence: a term read from a period or a clause, not from one labelled value.
    if (terms.start) result.contract_start = field(terms.start.iso, 'text', 0.7, terms.start.evidence);
    if (terms.end) result.contract_end = field(terms.end.iso, 'text', 0.7, terms.end.evidence);
    if (terms.noticePeriod)
      result.notice_period = field(terms.noticePeriod.value, 'text', 0.7, terms.noticePeriod.evidence);
  }

  const payment = hasText ? findPaymentDetails(fieldDoc) : { iban: null, bic: null, paymentReference: null };
  const einvoiceIban = e?.iban ? e.iban.replace(/\s+/g, '').toUpperCase() : null;
  if (einvoiceIban && isValidIban(einvoiceIban))
    result.iban = field(einvoiceIban, 'e-invoice', 1, `IBAN ${einvoiceIban}`);
  else if (payment.iban)
    result.iban = field(payment.iban.value, 'text', payment.iban.confidence, payment.iban.evidence);
  if (payment.bic) result.bic = field(payment.bic.value, 'text', payment.bic.confidence, payment.bic.evidence);
  if (e?.paymentReference)
    result.payment_reference = field(e.paymentReference, 'e-invoice', 1, `PaymentReference ${e.paymentReference}`);
  else if (payment.paymentReference) {
    result.payment_reference = field(
      payment.paymentReference.value,
      'text',
      payment.paymentReference.confidence,
      payment.paymentReference.evidence,
    );
  }

  const zones = findZones(positioned);
  const receipt = eventType === 'receipt' || tillRollPage;
  const parties = hasText
    ? findParties(doc, {
        address: zones.address,
        issuer: [...zones.letterhead, ...zones.footer],
        merchant: receipt ? receiptMerchant(positioned) : null,
        cells,
      })
    : { sender: null, buyer: null };
  if (e?.sellerName) result.sender_name = field(e.sellerName, 'e-invoice', 1, `Seller ${e.sellerName}`);
  else if (parties.sender)
    result.sender_name = field(parties.sender.name, 'text', parties.sender.confidence, parties.sender.evidence);
  if (e?.buyerName) result.buyer_name = field(e.buyerName, 'e-invoice', 1, `Buyer ${e.buyerName}`);
  else if (parties.buyer)
    result.buyer_name = field(parties.buyer.name, 'text', parties.buyer.confidence, parties.buyer.evidence);

  const sender = result.sender_name?.value ?? null;
  const titleLanguage =
    language ??
    (e && (e.sellerVatId?.startsWith('DE') || /xrechnung|xeinkauf|zugferd/iu.test(e.profile ?? '')) ? 'de' : null);
  const title = makeTitle({
    type: eventType,
    typeConfidence: result.event_type?.confidence ?? 0.3,
    heading: e ? null : classification.heading,
    language: titleLanguage,
    reference: result.reference_number?.value ?? null,
    sender,
    date: result.document_date?.value ?? null,
    subject: subjectLine(lines),
    filename: input.filename,
    lines,
  });
  if (title)
    result.title = field(
      title.title,
      e && title.source === 'text' ? 'e-invoice' : title.source,
      e ? 0.95 : title.confidence,
    );

  const knownType = hasText || e ? eventType : null;
  const category = pickCategory(input.categories, fold(`${text}\n${input.filename}`), knownType, sender);
  if (category) result.category = field(category.name, 'text', category.confidence, category.evidence || undefined);

  if (hasText || e) {
    const tags = makeTags({
      type: eventType,
      language: titleLanguage,
      keyword: e ? null : classification.keyword,
      sender,
      date: result.document_date?.value ?? null,
    });
    if (tags.length > 0) result.tags = field(tags, e ? 'e-invoice' : 'text', 0.6);
  }
  return result;
}

/** Short lines that end in a price with a currency: a till's column of items, which no letter prints. */
function priceColumn(lines: readonly string[], amounts: readonly AmountCandidate[]): boolean {
  const priced = new Set(
    amounts.filter((a) => a.currency && a.decimals && (lines[a.line]?.length ?? Infinity) <= 40).map((a) => a.line),
  );
  return priced.size >= PRICED_AMOUNTS;
}

/** Amounts with cents that make a page a bill of some kind rather than a note. */
const PRICED_AMOUNTS = 3;

const TERM_TYPES = new Set<EventType>(['contract', 'policy', 'offer']);
/** Types whose term has a notice period before its end. */
const CONTRACT_TYPES = new Set<EventType>(['contract', 'policy']);

/**
 * Payslips and receipts have no deadline even when a date is labelled like one; nor has a credit note, whose
 * printed "due date" is when the money comes back, nothing the reader must pay (an e-invoice's own DueDate is kept
 * as its XML states it). A statement may ask to pay by a date.
 */
function hasDueDateMeaning(type: EventType): boolean {
  return type !== 'payslip' && type !== 'receipt' && type !== 'credit_note';
}

const SUBJECT = /^(?:betreff|betr\.|subject|re|thema|ihr anliegen)\s*:\s*(.{3,})$/iu;

function subjectLine(lines: readonly string[]): string | null {
  for (const line of lines.slice(0, 60)) {
    const m = SUBJECT.exec(line);
    if (m?.[1]) return m[1].trim();
  }
  return null;
}
