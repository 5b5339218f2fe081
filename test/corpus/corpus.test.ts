/**
 * The evaluation corpus (test/fixtures/corpus, made by `npm run corpus`) is complete and consistent: enough
 * documents, every event type, the six languages, every format family, valid ground truth whose file exists and is
 * detected as the stated format, and e-invoices whose embedded XML agrees with the truth. Not the accuracy.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFRawStream,
  PDFString,
  PDFHexString,
} from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EVENT_TYPES, FILE_FORMATS } from '../../common/archive-types.ts';
import { detectFormat } from '../../shared/formats/detect-format.ts';
import { CATEGORIES } from '../../scripts/corpus/parties.ts';

const DIR = resolve(import.meta.dirname, '../fixtures/corpus');
const MAX_BYTES = 15 * 1024 * 1024;

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((d) => new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), 'real date');
const truthSchema = z
  .object({
    file: z.string().regex(/^[\w-]+\.(pdf|jpg|png|tif|docx|odt|xlsx)$/),
    format: z.enum(FILE_FORMATS),
    family: z.enum(['text-pdf', 'einvoice-pdf', 'scanned-pdf', 'image', 'office']),
    language: z.enum(['de', 'en', 'fr', 'nl', 'es', 'it']),
    event_type: z.enum(EVENT_TYPES),
    sender_name: z.string().min(2),
    reference_number: z.string().min(1).nullable(),
    amount: z
      .object({
        value: z
          .number()
          .finite()
          .positive()
          .refine((v) => Math.round(v * 100) / 100 === v, 'two decimals at most'),
        currency: z.string().regex(/^[A-Z]{3}$/),
      })
      .strict()
      .nullable(),
    document_date: isoDate,
    due_date: isoDate.nullable(),
    category: z.enum(CATEGORIES),
    einvoice: z.boolean(),
    einvoice_syntax: z.enum(['factur-x-cii', 'xrechnung-cii', 'xrechnung-ubl']).nullable(),
    pages: z.number().int().positive(),
    distortion: z.string().nullable(),
    text: z.string().min(40),
  })
  .strict();
type Truth = z.infer<typeof truthSchema>;

const truthFiles = existsSync(DIR)
  ? readdirSync(DIR)
      .filter((f) => f.endsWith('.json'))
      .sort()
  : [];
const truths: Truth[] = truthFiles.map((f) => truthSchema.parse(JSON.parse(readFileSync(join(DIR, f), 'utf8'))));

/** The embedded files of a PDF by name (the Names/EmbeddedFiles tree as pdf-lib's attach() writes it). */
async function embeddedFiles(bytes: Uint8Array): Promise<Map<string, string>> {
  const pdf = await PDFDocument.load(bytes);
  const out = new Map<string, string>();
  const names = pdf.catalog.lookupMaybe(PDFName.of('Names'), PDFDict);
  const tree = names?.lookupMaybe(PDFName.of('EmbeddedFiles'), PDFDict);
  const list = tree?.lookupMaybe(PDFName.of('Names'), PDFArray);
  if (!list) return out;
  for (let i = 0; i + 1 < list.size(); i += 2) {
    const key = list.lookup(i);
    const name = key instanceof PDFString || key instanceof PDFHexString ? key.decodeText() : String(key);
    const spec = list.lookup(i + 1, PDFDict);
    const stream = spec.lookup(PDFName.of('EF'), PDFDict).lookup(PDFName.of('F'));
    if (stream instanceof PDFRawStream) out.set(name, new TextDecoder().decode(decodePDFRawStream(stream).decode()));
  }
  return out;
}

const parser = new XMLParser({ ignoreAttributes: false, removeNSPrefix: true, parseTagValue: false });
const ymd = (d: string): string => `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}`;

/** The facts the XML states, in the truth's terms. */
function xmlFacts(xml: string): {
  number: string;
  typeCode: string;
  issue: string;
  due: string | null;
  total: number;
  currency: string;
  seller: string;
} {
  const doc = parser.parse(xml) as Record<string, Record<string, unknown>>;
  const text = (v: unknown): string =>
    typeof v === 'object' && v !== null ? String((v as Record<string, unknown>)['#text']) : String(v);
  if (doc.CrossIndustryInvoice) {
    const root = doc.CrossIndustryInvoice as Record<string, Record<string, Record<string, Record<string, unknown>>>>;
    const header = root.ExchangedDocument!;
    const tx = root.SupplyChainTradeTransaction!;
    const settlement = tx.ApplicableHeaderTradeSettlement as Record<string, Record<string, Record<string, unknown>>>;
    const dueDate = settlement.SpecifiedTradePaymentTerms?.DueDateDateTime as Record<string, unknown> | undefined;
    return {
      number: text(header.ID),
      typeCode: text(header.TypeCode),
      issue: ymd(text((header.IssueDateTime as Record<string, unknown>).DateTimeString)),
      due: dueDate ? ymd(text(dueDate.DateTimeString)) : null,
      total: Number(text(settlement.SpecifiedTradeSettlementHeaderMonetarySummation!.DuePayableAmount)),
      currency: text(settlement.InvoiceCurrencyCode),
      seller: text(
        (tx.ApplicableHeaderTradeAgreement as Record<string, Record<string, unknown>>).SellerTradeParty!.Name,
      ),
    };
  }
  const inv = doc.Invoice as Record<string, unknown>;
  const supplier = (inv.AccountingSupplierParty as Record<string, Record<string, Record<string, unknown>>>).Party!;
  return {
    number: text(inv.ID),
    typeCode: text(inv.InvoiceTypeCode),
    issue: text(inv.IssueDate),
    due: inv.DueDate ? text(inv.DueDate) : null,
    total: Number(text((inv.LegalMonetaryTotal as Record<string, unknown>).PayableAmount)),
    currency: text(inv.DocumentCurrencyCode),
    seller: text(supplier.PartyLegalEntity!.RegistrationName),
  };
}

describe('document intelligence corpus', () => {
  it('has at least 60 documents with valid ground truth', () => {
    expect(truths.length).toBeGreaterThanOrEqual(60);
    expect(new Set(truths.map((t) => t.file)).size).toBe(truths.length);
    for (const [i, t] of truths.entries()) expect(truthFiles[i]).toBe(t.file.replace(/\.\w+$/, '.json'));
  });

  it('covers all ten event types, the six languages and every format family', () => {
    expect(new Set(truths.map((t) => t.event_type))).toEqual(new Set(EVENT_TYPES));
    const languages = truths.map((t) => t.language);
    const share = (lang: string): number => languages.filter((l) => l === lang).length / truths.length;
    expect(share('de')).toBeGreaterThan(0.3);
    expect(share('en')).toBeGreaterThan(0.3);
    for (const lang of ['fr', 'nl', 'es', 'it']) expect(share(lang), lang).toBeGreaterThanOrEqual(0.05);
    expect(new Set(truths.map((t) => t.family))).toEqual(
      new Set(['text-pdf', 'einvoice-pdf', 'scanned-pdf', 'image', 'office']),
    );
    expect(new Set(truths.map((t) => t.format))).toEqual(
      new Set(['pdf', 'jpeg', 'png', 'tiff', 'docx', 'odt', 'xlsx']),
    );
    expect(new Set(truths.map((t) => t.einvoice_syntax))).toEqual(
      new Set([null, 'factur-x-cii', 'xrechnung-cii', 'xrechnung-ubl']),
    );
    expect(truths.some((t) => t.format === 'tiff' && t.pages > 1)).toBe(true);
    expect(truths.some((t) => t.distortion?.includes('rotated'))).toBe(true);
    expect(new Set(truths.map((t) => t.sender_name)).size).toBeGreaterThanOrEqual(30);
  });

  it('keeps each truth consistent with itself', () => {
    for (const t of truths) {
      expect(t.einvoice, t.file).toBe(t.family === 'einvoice-pdf');
      expect(t.einvoice_syntax !== null, t.file).toBe(t.einvoice);
      expect(t.distortion !== null, t.file).toBe(t.family === 'scanned-pdf' || t.family === 'image');
      if (t.due_date) expect(t.due_date >= t.document_date, t.file).toBe(true);
      expect(t.document_date <= '2026-11-21', t.file).toBe(true);
      if (t.amount) expect(t.amount.currency === 'EUR' || t.language === 'en', t.file).toBe(true);
    }
  });

  it('has every file, detected as the stated format, within the size budget', async () => {
    let total = 0;
    for (const name of readdirSync(DIR)) total += statSync(join(DIR, name)).size;
    expect(total).toBeLessThan(MAX_BYTES);
    for (const t of truths) {
      const path = join(DIR, t.file);
      expect(existsSync(path), t.file).toBe(true);
      const detected = await detectFormat(path);
      expect(detected?.format, t.file).toBe(t.format);
    }
  });

  it('embeds e-invoice XML that agrees with the truth', async () => {
    const einvoices = truths.filter((t) => t.einvoice);
    expect(einvoices.length).toBeGreaterThanOrEqual(4);
    for (const t of einvoices) {
      const files = await embeddedFiles(readFileSync(join(DIR, t.file)));
      const name = t.einvoice_syntax === 'factur-x-cii' ? 'factur-x.xml' : 'xrechnung.xml';
      const xml = files.get(name);
      expect(xml, `${t.file} ${name}`).toBeDefined();
      const facts = xmlFacts(xml!);
      expect(facts.number, t.file).toBe(t.reference_number);
      expect(facts.typeCode, t.file).toBe(t.event_type === 'credit_note' ? '381' : '380');
      expect(facts.issue, t.file).toBe(t.document_date);
      expect(facts.due, t.file).toBe(t.due_date);
      expect(facts.total, t.file).toBe(t.amount?.value);
      expect(facts.currency, t.file).toBe(t.amount?.currency);
      expect(facts.seller, t.file).toBe(t.sender_name);
      if (t.einvoice_syntax === 'xrechnung-ubl')
        expect(xml).toContain('urn:oasis:names:specification:ubl:schema:xsd:Invoice-2');
      if (t.einvoice_syntax === 'xrechnung-cii') expect(xml).toContain('urn:xeinkauf.de:kosit:xrechnung_3.0');
    }
  });
});
