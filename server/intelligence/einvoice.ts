/**
 * Structured e-invoices: UN/CEFACT CII (ZUGFeRD 1.x and 2.x, Factur-X, XRechnung CII) and UBL 2.1 (XRechnung UBL,
 * Invoice and CreditNote), from XML text or from the XML embedded in a PDF/A-3. Values are taken as written.
 */

import { readFile } from 'node:fs/promises';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { isValidDate } from './dates.ts';

export interface EInvoice {
  syntax: 'cii' | 'ubl';
  /** Guideline / customization id, e.g. "urn:cen.eu:en16931:2017" or an XRechnung URN. */
  profile: string | null;
  invoiceNumber: string;
  /** UNTDID 1001 document type: 380 invoice, 381 credit note, 384 corrected invoice, 326 partial invoice … */
  typeCode: string;
  issueDate: string;
  dueDate: string | null;
  currency: string;
  grandTotal: number;
  duePayable: number;
  taxTotal: number | null;
  sellerName: string;
  sellerVatId: string | null;
  buyerName: string | null;
  paymentReference: string | null;
  iban: string | null;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  // Amounts stay strings until decimal() reads them: no number guessing by the parser.
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
});

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function list(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

/** Follows element names; a repeated element is read at its first occurrence. */
function at(node: unknown, ...path: string[]): unknown {
  let current = node;
  for (const name of path) {
    const first = list(current)[0];
    if (!isRecord(first)) return undefined;
    current = first[name];
  }
  return current;
}

function text(node: unknown): string | null {
  const first = list(node)[0];
  const value = isRecord(first) ? first['#text'] : first;
  if (typeof value === 'string' || typeof value === 'number') {
    const trimmed = String(value).trim();
    return trimmed || null;
  }
  return null;
}

function attr(node: unknown, name: string): string | null {
  const first = list(node)[0];
  return isRecord(first) && typeof first[`@${name}`] === 'string' ? (first[`@${name}`] as string).trim() : null;
}

/** An xs:decimal as written ("1234.50" → 1234.5); anything else is not a number here. */
function decimal(node: unknown): number | null {
  const value = text(node);
  if (!value || !/^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/.test(value)) return null;
  return Number(value);
}

/** CII dates: format 102 is YYYYMMDD; some producers write ISO dates anyway. */
function ciiDate(node: unknown): string | null {
  const value = text(at(node, 'DateTimeString')) ?? text(at(node, 'DateTime')) ?? text(node);
  if (!value) return null;
  const m = /^(\d{4})-?(\d{2})-?(\d{2})/.exec(value);
  if (!m) return null;
  return isValidDate(Number(m[1]), Number(m[2]), Number(m[3])) ? `${m[1]}-${m[2]}-${m[3]}` : null;
}

function isoDate(node: unknown): string | null {
  const value = text(node);
  const m = value ? /^(\d{4})-(\d{2})-(\d{2})/.exec(value) : null;
  return m && isValidDate(Number(m[1]), Number(m[2]), Number(m[3])) ? `${m[1]}-${m[2]}-${m[3]}` : null;
}

/** Of several tax totals (invoice currency and accounting currency), the one in the invoice currency. */
function amountInCurrency(nodes: unknown[], currency: string): number | null {
  const match =
    nodes.find((n) => attr(n, 'currencyID') === currency) ??
    nodes.find((n) => attr(n, 'currencyID') === null) ??
    nodes[0];
  return match === undefined ? null : decimal(match);
}

function firstText(nodes: unknown[], ...path: string[]): string | null {
  for (const node of nodes) {
    const value = text(at(node, ...path));
    if (value) return value;
  }
  return null;
}

function parseCii(root: Record<string, unknown>): EInvoice | null {
  const context = at(root, 'ExchangedDocumentContext') ?? at(root, 'SpecifiedExchangedDocumentContext');
  const doc = at(root, 'ExchangedDocument') ?? at(root, 'HeaderExchangedDocument');
  const tx = at(root, 'SupplyChainTradeTransaction') ?? at(root, 'SpecifiedSupplyChainTradeTransaction');
  const agreement = at(tx, 'ApplicableHeaderTradeAgreement') ?? at(tx, 'ApplicableSupplyChainTradeAgreement');
  const settlement = at(tx, 'ApplicableHeaderTradeSettlement') ?? at(tx, 'ApplicableSupplyChainTradeSettlement');
  const totals =
    at(settlement, 'SpecifiedTradeSettlementHeaderMonetarySummation') ??
    at(settlement, 'SpecifiedTradeSettlementMonetarySummation');
  const currency = text(at(settlement, 'InvoiceCurrencyCode'));
  const seller = at(agreement, 'SellerTradeParty');
  const vat = list(at(seller, 'SpecifiedTaxRegistration'))
    .map((r) => at(r, 'ID'))
    .find((id) => attr(id, 'schemeID') === 'VA');
  const means = list(at(settlement, 'SpecifiedTradeSettlementPaymentMeans'));
  const terms = list(at(settlement, 'SpecifiedTradePaymentTerms'));
  const dueDate = terms.map((t) => ciiDate(at(t, 'DueDateDateTime'))).find((d) => d !== null) ?? null;
  return complete({
    syntax: 'cii',
    profile: text(at(context, 'GuidelineSpecifiedDocumentContextParameter', 'ID')),
    invoiceNumber: text(at(doc, 'ID')),
    typeCode: text(at(doc, 'TypeCode')) ?? '380',
    issueDate: ciiDate(at(doc, 'IssueDateTime')),
    dueDate,
    currency,
    grandTotal: decimal(at(totals, 'GrandTotalAmount')),
    duePayable: decimal(at(totals, 'DuePayableAmount')),
    taxTotal: currency ? amountInCurrency(list(at(totals, 'TaxTotalAmount')), currency) : null,
    sellerName: text(at(seller, 'Name')),
    sellerVatId: vat === undefined ? null : text(vat),
    buyerName: text(at(agreement, 'BuyerTradeParty', 'Name')),
    paymentReference: text(at(settlement, 'PaymentReference')),
    iban: firstText(means, 'PayeePartyCreditorFinancialAccount', 'IBANID'),
  });
}

function partyName(party: unknown): string | null {
  return text(at(party, 'PartyLegalEntity', 'RegistrationName')) ?? text(at(party, 'PartyName', 'Name'));
}

function parseUbl(root: Record<string, unknown>, creditNote: boolean): EInvoice | null {
  const currency = text(at(root, 'DocumentCurrencyCode'));
  const seller = at(root, 'AccountingSupplierParty', 'Party');
  const vat = list(at(seller, 'PartyTaxScheme')).find((s) => text(at(s, 'TaxScheme', 'ID'))?.toUpperCase() === 'VAT');
  const means = list(at(root, 'PaymentMeans'));
  const totals = at(root, 'LegalMonetaryTotal');
  const taxAmounts = list(at(root, 'TaxTotal'))
    .map((t) => at(t, 'TaxAmount'))
    .filter((a) => a !== undefined);
  const dueDate =
    isoDate(at(root, 'DueDate')) ?? means.map((m) => isoDate(at(m, 'PaymentDueDate'))).find((d) => d !== null) ?? null;
  return complete({
    syntax: 'ubl',
    profile: text(at(root, 'CustomizationID')) ?? text(at(root, 'ProfileID')),
    invoiceNumber: text(at(root, 'ID')),
    typeCode: text(at(root, creditNote ? 'CreditNoteTypeCode' : 'InvoiceTypeCode')) ?? (creditNote ? '381' : '380'),
    issueDate: isoDate(at(root, 'IssueDate')),
    dueDate,
    currency,
    grandTotal: decimal(at(totals, 'TaxInclusiveAmount')),
    duePayable: decimal(at(totals, 'PayableAmount')),
    taxTotal: currency ? amountInCurrency(taxAmounts, currency) : null,
    sellerName: partyName(seller),
    sellerVatId: vat === undefined ? null : text(at(vat, 'CompanyID')),
    buyerName: partyName(at(root, 'AccountingCustomerParty', 'Party')),
    paymentReference: firstText(means, 'PaymentID'),
    iban: firstText(means, 'PayeeFinancialAccount', 'ID'),
  });
}

type Partial_ = { [K in keyof EInvoice]: EInvoice[K] | null };

/** An invoice needs its number, date, currency and a total; the rest may be missing. */
function complete(raw: Partial_): EInvoice | null {
  const { invoiceNumber, issueDate, currency, syntax, typeCode } = raw;
  const grandTotal = raw.grandTotal ?? raw.duePayable;
  const duePayable = raw.duePayable ?? raw.grandTotal;
  if (!invoiceNumber || !issueDate || !currency || grandTotal === null || duePayable === null || !syntax || !typeCode)
    return null;
  return {
    syntax,
    profile: raw.profile,
    invoiceNumber,
    typeCode,
    issueDate,
    dueDate: raw.dueDate,
    currency: currency.toUpperCase(),
    grandTotal,
    duePayable,
    taxTotal: raw.taxTotal,
    sellerName: raw.sellerName ?? '',
    sellerVatId: raw.sellerVatId,
    buyerName: raw.buyerName,
    paymentReference: raw.paymentReference,
    iban: raw.iban ? raw.iban.replace(/\s+/g, '') : null,
  };
}

/** Parses CII or UBL invoice XML; null when it is not well-formed or not an invoice of either syntax. */
export function parseEInvoiceXml(xml: string): EInvoice | null {
  const source = xml.replace(/^\uFEFF/, '');
  if (!/<(?:[\w-]+:)?(?:CrossIndustryInvoice|CrossIndustryDocument|Invoice|CreditNote)[\s>]/.test(source)) return null;
  if (XMLValidator.validate(source) !== true) return null;
  let parsed: unknown;
  try {
    parsed = parser.parse(source);
  } catch {
    return null;
  }
  if (!isRecord(parsed)) return null;
  const cii = parsed['CrossIndustryInvoice'] ?? parsed['CrossIndustryDocument'];
  if (isRecord(cii)) return parseCii(cii);
  const invoice = parsed['Invoice'];
  if (isRecord(invoice)) return parseUbl(invoice, false);
  const creditNote = parsed['CreditNote'];
  if (isRecord(creditNote)) return parseUbl(creditNote, true);
  return null;
}

/** Attachment names the standards prescribe, in order of preference; any other *.xml is tried after them. */
const KNOWN_NAMES = ['factur-x.xml', 'zugferd-invoice.xml', 'xrechnung.xml'];

/** The e-invoice embedded in a PDF (ZUGFeRD / Factur-X / XRechnung attachment), or null. */
export async function readEInvoiceFromPdf(path: string): Promise<EInvoice | null> {
  return readEInvoiceFromPdfData(new Uint8Array(await readFile(path)));
}

export async function readEInvoiceFromPdfData(data: Uint8Array): Promise<EInvoice | null> {
  const pdf = await getDocument({
    data: data.slice(),
    isEvalSupported: false,
    disableFontFace: true,
    verbosity: 0,
  }).promise.catch(() => null);
  if (!pdf) return null;
  try {
    const attachments: unknown = await pdf.getAttachments();
    if (!isRecord(attachments)) return null;
    const files = Object.entries(attachments).flatMap(([key, value]) => {
      if (!isRecord(value) || !(value['content'] instanceof Uint8Array)) return [];
      const name = typeof value['filename'] === 'string' ? value['filename'] : key;
      return [{ name, content: value['content'] }];
    });
    const rank = (name: string): number => {
      const lower = name.toLowerCase();
      const known = KNOWN_NAMES.indexOf(lower);
      return known >= 0 ? known : lower.endsWith('.xml') ? 10 : 99;
    };
    const decoder = new TextDecoder('utf-8');
    for (const file of files.filter((f) => rank(f.name) < 99).sort((a, b) => rank(a.name) - rank(b.name))) {
      const invoice = parseEInvoiceXml(decoder.decode(file.content));
      if (invoice) return invoice;
    }
    return null;
  } catch {
    return null;
  } finally {
    await pdf.destroy();
  }
}
