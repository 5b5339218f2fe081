import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEInvoiceXml, readEInvoiceFromPdf, type EInvoice } from '../../server/intelligence/einvoice.ts';
import { understand } from '../../server/intelligence/understand.ts';
import { CII_CREDIT_NOTE, CII_INVOICE, UBL_CREDIT_NOTE, UBL_INVOICE, ZUGFERD_1 } from './einvoice-samples.ts';

const CII_EXPECTED: EInvoice = {
  syntax: 'cii',
  profile: 'urn:cen.eu:en16931:2017',
  invoiceNumber: 'RE-2026-4711',
  typeCode: '380',
  issueDate: '2026-12-15',
  dueDate: '2027-01-14',
  currency: 'EUR',
  grandTotal: 1190.12,
  duePayable: 1090.12,
  taxTotal: 190.02,
  sellerName: 'Lieferant & Söhne GmbH',
  sellerVatId: 'DE123456789',
  buyerName: 'Kunden AG Mitte',
  paymentReference: 'RE-2026-4711 / K-10023',
  iban: 'DE02120300000000202051',
};

describe('parseEInvoiceXml: CII', () => {
  it('reads a ZUGFeRD 2 / Factur-X EN 16931 invoice exactly', () => {
    expect(parseEInvoiceXml(CII_INVOICE)).toEqual(CII_EXPECTED);
  });

  it('reads a credit note in CHF and picks the tax total in the invoice currency', () => {
    const credit = parseEInvoiceXml(CII_CREDIT_NOTE);
    expect(credit).toEqual({
      syntax: 'cii',
      profile: 'urn:factur-x.eu:1p0:basic',
      invoiceNumber: 'GS-77',
      typeCode: '381',
      issueDate: '2027-01-02',
      dueDate: null,
      currency: 'CHF',
      grandTotal: 0.3,
      duePayable: 0.3,
      taxTotal: 0.2,
      sellerName: 'Swiss Tools AG',
      sellerVatId: null,
      buyerName: 'Werkstatt Meier',
      paymentReference: null,
      iban: null,
    });
    // The decimal text is read as written: 0.30, not 0.1 + 0.2.
    expect(credit?.grandTotal).toBe(0.3);
  });

  it('reads ZUGFeRD 1.0 (CrossIndustryDocument)', () => {
    expect(parseEInvoiceXml(ZUGFERD_1)).toEqual({
      syntax: 'cii',
      profile: 'urn:ferd:CrossIndustryDocument:invoice:1p0:comfort',
      invoiceNumber: '471102',
      typeCode: '380',
      issueDate: '2013-03-05',
      dueDate: '2013-04-04',
      currency: 'EUR',
      grandTotal: 235.62,
      duePayable: 235.62,
      taxTotal: 37.62,
      sellerName: 'Lieferant GmbH',
      sellerVatId: 'DE123456789',
      buyerName: 'Kunden AG Mitte',
      paymentReference: '471102',
      iban: 'DE08700901001234567890',
    });
  });

  it('keeps large amounts exact', () => {
    const xml = CII_INVOICE.replace(
      '<ram:GrandTotalAmount>1190.12</ram:GrandTotalAmount>',
      '<ram:GrandTotalAmount>9876543.21</ram:GrandTotalAmount>',
    );
    expect(parseEInvoiceXml(xml)?.grandTotal).toBe(9876543.21);
  });
});

describe('parseEInvoiceXml: UBL', () => {
  it('reads an XRechnung UBL invoice exactly', () => {
    expect(parseEInvoiceXml(UBL_INVOICE)).toEqual({
      syntax: 'ubl',
      profile: 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
      invoiceNumber: 'INV-1001',
      typeCode: '380',
      issueDate: '2026-12-15',
      dueDate: '2027-01-14',
      currency: 'EUR',
      grandTotal: 296.31,
      duePayable: 296.31,
      taxTotal: 47.31,
      sellerName: 'Acme Trading GmbH',
      sellerVatId: 'DE987654321',
      buyerName: 'Stadt Musterhausen',
      paymentReference: 'INV-1001',
      iban: 'DE75512108001245126199',
    });
  });

  it('reads a UBL credit note with its due date in PaymentMeans', () => {
    expect(parseEInvoiceXml(UBL_CREDIT_NOTE)).toEqual({
      syntax: 'ubl',
      profile: 'urn:cen.eu:en16931:2017',
      invoiceNumber: 'CN-2027-003',
      typeCode: '381',
      issueDate: '2027-01-05',
      dueDate: '2027-01-19',
      currency: 'GBP',
      grandTotal: 60,
      duePayable: 60,
      taxTotal: 10,
      sellerName: 'Bright Widgets Ltd',
      sellerVatId: 'GB123456789',
      buyerName: 'Jane Doe',
      paymentReference: null,
      iban: null,
    });
  });
});

describe('parseEInvoiceXml: what is not an e-invoice', () => {
  it('returns null for other XML, broken XML and incomplete invoices', () => {
    expect(parseEInvoiceXml('<?xml version="1.0"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf/></x:xmpmeta>')).toBeNull();
    expect(parseEInvoiceXml(CII_INVOICE.slice(0, 800))).toBeNull();
    expect(parseEInvoiceXml('not xml at all')).toBeNull();
    expect(parseEInvoiceXml('')).toBeNull();
    expect(parseEInvoiceXml(CII_INVOICE.replace('<ram:ID>RE-2026-4711</ram:ID>', ''))).toBeNull();
    expect(
      parseEInvoiceXml(UBL_INVOICE.replace(/<cac:LegalMonetaryTotal>[\s\S]*<\/cac:LegalMonetaryTotal>/, '')),
    ).toBeNull();
    expect(
      parseEInvoiceXml(
        UBL_INVOICE.replace('<cbc:IssueDate>2026-12-15</cbc:IssueDate>', '<cbc:IssueDate>2026-02-30</cbc:IssueDate>'),
      ),
    ).toBeNull();
  });

  it('rejects amounts that are not xs:decimal', () => {
    const xml = CII_INVOICE.replace(
      '<ram:TaxTotalAmount currencyID="EUR">190.02</ram:TaxTotalAmount>',
      '<ram:TaxTotalAmount currencyID="EUR">1.9E2</ram:TaxTotalAmount>',
    );
    expect(parseEInvoiceXml(xml)?.taxTotal).toBeNull();
  });

  it('tolerates a byte order mark', () => {
    expect(parseEInvoiceXml(`\uFEFF${UBL_INVOICE}`)?.invoiceNumber).toBe('INV-1001');
  });
});

describe('readEInvoiceFromPdf', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'einvoice-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function pdfWith(attachments: Array<{ name: string; content: string }>): Promise<string> {
    const pdf = await PDFDocument.create();
    const page = pdf.addPage([595, 842]);
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    page.drawText('Rechnung RE-2026-4711', { x: 50, y: 780, size: 14, font });
    for (const file of attachments) {
      await pdf.attach(new TextEncoder().encode(file.content), file.name, {
        mimeType: 'application/xml',
        description: 'Invoice',
      });
    }
    const path = join(dir, `${crypto.randomUUID()}.pdf`);
    await writeFile(path, await pdf.save());
    return path;
  }

  it('reads the factur-x.xml attachment of a PDF', async () => {
    const path = await pdfWith([{ name: 'factur-x.xml', content: CII_INVOICE }]);
    expect(await readEInvoiceFromPdf(path)).toEqual(CII_EXPECTED);
  });

  it('prefers the standard file name and skips attachments that are not invoices', async () => {
    const path = await pdfWith([
      { name: 'notes.xml', content: '<notes><note>hello</note></notes>' },
      { name: 'other-invoice.xml', content: UBL_INVOICE },
      { name: 'ZUGFeRD-invoice.xml', content: ZUGFERD_1 },
    ]);
    expect((await readEInvoiceFromPdf(path))?.invoiceNumber).toBe('471102');
  });

  it('falls back to any XML attachment that parses', async () => {
    const path = await pdfWith([
      { name: 'readme.txt', content: 'hello' },
      { name: 'invoice-data.xml', content: UBL_INVOICE },
    ]);
    expect((await readEInvoiceFromPdf(path))?.invoiceNumber).toBe('INV-1001');
  });

  it('returns null for a PDF without an e-invoice and for a file that is no PDF', async () => {
    expect(await readEInvoiceFromPdf(await pdfWith([]))).toBeNull();
    expect(await readEInvoiceFromPdf(await pdfWith([{ name: 'factur-x.xml', content: '<broken' }]))).toBeNull();
    const notPdf = join(dir, 'not.pdf');
    await writeFile(notPdf, 'hello');
    expect(await readEInvoiceFromPdf(notPdf)).toBeNull();
  });
});

describe('understand with an e-invoice', () => {
  const base = { filename: 'scan_0042.pdf', categories: ['Rechnungen', 'Versicherung'], today: '2027-01-20' };

  it('takes the e-invoice values first with source e-invoice and confidence 1', () => {
    const einvoice = parseEInvoiceXml(CII_INVOICE);
    const text = `Lieferant & Söhne GmbH · Lieferantenstraße 20 · 80333 München
Rechnung Nr. RE-2026-4711
Datum: 16.12.2026
Gesamtbetrag 999,00 €
Vielen Dank für Ihren Auftrag.`;
    const result = understand({ ...base, text, einvoice });
    expect(result.amount).toMatchObject({
      value: { value: 1090.12, currency: 'EUR' },
      source: 'e-invoice',
      confidence: 1,
    });
    expect(result.document_date).toMatchObject({ value: '2026-12-15', source: 'e-invoice', confidence: 1 });
    expect(result.due_date).toMatchObject({ value: '2027-01-14', source: 'e-invoice', confidence: 1 });
    expect(result.reference_number).toMatchObject({ value: 'RE-2026-4711', source: 'e-invoice', confidence: 1 });
    expect(result.sender_name).toMatchObject({ value: 'Lieferant & Söhne GmbH', source: 'e-invoice', confidence: 1 });
    expect(result.buyer_name).toMatchObject({ value: 'Kunden AG Mitte', source: 'e-invoice', confidence: 1 });
    expect(result.event_type).toMatchObject({ value: 'invoice', source: 'e-invoice', confidence: 1 });
    expect(result.title?.value).toBe('Rechnung RE-2026-4711 – Lieferant & Söhne GmbH');
    expect(result.category?.value).toBe('Rechnungen');
    expect(result.tags?.value).toEqual(['rechnung', 'lieferant', '2026']);
  });

  it('makes a credit note of type code 381 and of UBL CreditNote, even without any text', () => {
    const cii = understand({ ...base, text: '', einvoice: parseEInvoiceXml(CII_CREDIT_NOTE) });
    expect(cii.event_type?.value).toBe('credit_note');
    expect(cii.amount?.value).toEqual({ value: 0.3, currency: 'CHF' });
    expect(cii.due_date).toBeUndefined();
    const ubl = understand({ ...base, text: '', einvoice: parseEInvoiceXml(UBL_CREDIT_NOTE) });
    expect(ubl.event_type?.value).toBe('credit_note');
    expect(ubl.title?.value).toBe('Credit note CN-2027-003 from Bright Widgets Ltd');
    expect(ubl.due_date?.value).toBe('2027-01-19');
  });
});
