/**
 * Structured invoice XML: UN/CEFACT CII (Factur-X / ZUGFeRD 2 profile EN 16931, XRechnung CII) and OASIS UBL 2.1
 * (XRechnung UBL), plus the XMP packet that marks a PDF/A-3 as Factur-X. The XML is the legally binding invoice.
 */
import { AFRelationship, PDFDocument, PDFName } from 'pdf-lib';
import { round2 } from './format.ts';
import type { InvoiceData } from './model.ts';

export interface InvoiceTotals {
  lineTotal: number;
  taxTotal: number;
  grandTotal: number;
  byRate: Array<{ rate: number; basis: number; tax: number }>;
  lines: Array<{ amount: number }>;
}

export function invoiceTotals(data: InvoiceData): InvoiceTotals {
  const lines = data.lines.map((l) => ({ amount: round2(l.quantity * l.unitPrice) }));
  const rates = [...new Set(data.lines.map((l) => l.vatRate))].sort((a, b) => b - a);
  const byRate = rates.map((rate) => {
    const basis = round2(data.lines.reduce((sum, l, i) => (l.vatRate === rate ? sum + lines[i]!.amount : sum), 0));
    return { rate, basis, tax: round2((basis * rate) / 100) };
  });
  const lineTotal = round2(lines.reduce((s, l) => s + l.amount, 0));
  const taxTotal = round2(byRate.reduce((s, r) => s + r.tax, 0));
  return { lineTotal, taxTotal, grandTotal: round2(lineTotal + taxTotal), byRate, lines };
}

const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const amt = (n: number): string => n.toFixed(2);
const d102 = (iso: string): string => iso.replace(/-/g, '');
const qty = (n: number): string => (Number.isInteger(n) ? n.toFixed(0) : n.toFixed(2));
/** 0 % only occurs as intra-EU reverse charge in this corpus (VAT category AE). */
const category = (rate: number): string => (rate === 0 ? 'AE' : 'S');
const REVERSE_CHARGE = 'Reverse charge';
/** XRechnung requires a seller contact (BR-DE-2). */
const CONTACT = 'Buchhaltung / Accounts';

export type CiiGuideline = 'factur-x-en16931' | 'xrechnung';

const GUIDELINES: Record<CiiGuideline, string> = {
  'factur-x-en16931': 'urn:cen.eu:en16931:2017',
  xrechnung: 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
};

export function buildCii(data: InvoiceData, guideline: CiiGuideline): string {
  const precedingInvoice = data.preceding;
  const t = invoiceTotals(data);
  const s = data.seller;
  const b = data.buyer;
  const items = data.lines
    .map(
      (l, i) => `
    <ram:IncludedSupplyChainTradeLineItem>
      <ram:AssociatedDocumentLineDocument><ram:LineID>${i + 1}</ram:LineID></ram:AssociatedDocumentLineDocument>
      <ram:SpecifiedTradeProduct><ram:Name>${esc(l.name)}</ram:Name></ram:SpecifiedTradeProduct>
      <ram:SpecifiedLineTradeAgreement>
        <ram:NetPriceProductTradePrice><ram:ChargeAmount>${amt(l.unitPrice)}</ram:ChargeAmount></ram:NetPriceProductTradePrice>
      </ram:SpecifiedLineTradeAgreement>
      <ram:SpecifiedLineTradeDelivery><ram:BilledQuantity unitCode="${l.unit}">${qty(l.quantity)}</ram:BilledQuantity></ram:SpecifiedLineTradeDelivery>
      <ram:SpecifiedLineTradeSettlement>
        <ram:ApplicableTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>${category(l.vatRate)}</ram:CategoryCode><ram:RateApplicablePercent>${l.vatRate}</ram:RateApplicablePercent></ram:ApplicableTradeTax>
        <ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>${amt(t.lines[i]!.amount)}</ram:LineTotalAmount></ram:SpecifiedTradeSettlementLineMonetarySummation>
      </ram:SpecifiedLineTradeSettlement>
    </ram:IncludedSupplyChainTradeLineItem>`,
    )
    .join('');
  const taxes = t.byRate
    .map(
      (r) => `
      <ram:ApplicableTradeTax>
        <ram:CalculatedAmount>${amt(r.tax)}</ram:CalculatedAmount><ram:TypeCode>VAT</ram:TypeCode>${
          r.rate === 0
            ? `
        <ram:ExemptionReason>${REVERSE_CHARGE}</ram:ExemptionReason>`
            : ''
        }
        <ram:BasisAmount>${amt(r.basis)}</ram:BasisAmount><ram:CategoryCode>${category(r.rate)}</ram:CategoryCode>
        <ram:RateApplicablePercent>${r.rate}</ram:RateApplicablePercent>
      </ram:ApplicableTradeTax>`,
    )
    .join('');
  const due = data.dueDate
    ? `<ram:DueDateDateTime><udt:DateTimeString format="102">${d102(data.dueDate)}</udt:DateTimeString></ram:DueDateDateTime>`
    : '';
  const process =
    guideline === 'xrechnung'
      ? `<ram:BusinessProcessSpecifiedDocumentContextParameter><ram:ID>urn:fdc:peppol.eu:2017:poacc:billing:01:1.0</ram:ID></ram:BusinessProcessSpecifiedDocumentContextParameter>
    `
      : '';
  const preceding = precedingInvoice
    ? `
      <ram:InvoiceReferencedDocument>
        <ram:IssuerAssignedID>${esc(precedingInvoice.number)}</ram:IssuerAssignedID>
        <ram:FormattedIssueDateTime><qdt:DateTimeString format="102">${d102(precedingInvoice.date)}</qdt:DateTimeString></ram:FormattedIssueDateTime>
      </ram:InvoiceReferencedDocument>`
    : '';
  return `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"
  xmlns:qdt="urn:un:unece:uncefact:data:standard:QualifiedDataType:100"
  xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"
  xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">
  <rsm:ExchangedDocumentContext>
    ${process}<ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>${GUIDELINES[guideline]}</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter>
  </rsm:ExchangedDocumentContext>
  <rsm:ExchangedDocument>
    <ram:ID>${esc(data.number)}</ram:ID>
    <ram:TypeCode>${data.typeCode}</ram:TypeCode>
    <ram:IssueDateTime><udt:DateTimeString format="102">${d102(data.issueDate)}</udt:DateTimeString></ram:IssueDateTime>
  </rsm:ExchangedDocument>
  <rsm:SupplyChainTradeTransaction>${items}
    <ram:ApplicableHeaderTradeAgreement>
      <ram:BuyerReference>${esc(b.reference)}</ram:BuyerReference>
      <ram:SellerTradeParty>
        <ram:Name>${esc(s.name)}</ram:Name>
        <ram:DefinedTradeContact>
          <ram:PersonName>${CONTACT}</ram:PersonName>
          <ram:TelephoneUniversalCommunication><ram:CompleteNumber>${esc(s.phone)}</ram:CompleteNumber></ram:TelephoneUniversalCommunication>
          <ram:EmailURIUniversalCommunication><ram:URIID>${esc(s.email)}</ram:URIID></ram:EmailURIUniversalCommunication>
        </ram:DefinedTradeContact>
        <ram:PostalTradeAddress>
          <ram:PostcodeCode>${esc(s.postcode)}</ram:PostcodeCode><ram:LineOne>${esc(s.street)}</ram:LineOne>
          <ram:CityName>${esc(s.city)}</ram:CityName><ram:CountryID>${s.country}</ram:CountryID>
        </ram:PostalTradeAddress>
        <ram:URIUniversalCommunication><ram:URIID schemeID="EM">${esc(s.email)}</ram:URIID></ram:URIUniversalCommunication>
        <ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">${esc(s.vatId.replace(/\s+/g, ''))}</ram:ID></ram:SpecifiedTaxRegistration>
      </ram:SellerTradeParty>
      <ram:BuyerTradeParty>
        <ram:Name>${esc(b.name)}</ram:Name>
        <ram:PostalTradeAddress>
          <ram:PostcodeCode>${esc(b.postcode)}</ram:PostcodeCode><ram:LineOne>${esc(b.street)}</ram:LineOne>
          <ram:CityName>${esc(b.city)}</ram:CityName><ram:CountryID>${b.country}</ram:CountryID>
        </ram:PostalTradeAddress>
      </ram:BuyerTradeParty>
    </ram:ApplicableHeaderTradeAgreement>
    <ram:ApplicableHeaderTradeDelivery>
      <ram:ActualDeliverySupplyChainEvent>
        <ram:OccurrenceDateTime><udt:DateTimeString format="102">${d102(data.deliveryDate)}</udt:DateTimeString></ram:OccurrenceDateTime>
      </ram:ActualDeliverySupplyChainEvent>
    </ram:ApplicableHeaderTradeDelivery>
    <ram:ApplicableHeaderTradeSettlement>
      <ram:PaymentReference>${esc(data.number)}</ram:PaymentReference>
      <ram:InvoiceCurrencyCode>${data.currency}</ram:InvoiceCurrencyCode>
      <ram:SpecifiedTradeSettlementPaymentMeans>
        <ram:TypeCode>58</ram:TypeCode>
        <ram:PayeePartyCreditorFinancialAccount><ram:IBANID>${s.iban.replace(/\s+/g, '')}</ram:IBANID></ram:PayeePartyCreditorFinancialAccount>
        <ram:PayeeSpecifiedCreditorFinancialInstitution><ram:BICID>${s.bic}</ram:BICID></ram:PayeeSpecifiedCreditorFinancialInstitution>
      </ram:SpecifiedTradeSettlementPaymentMeans>${taxes}
      <ram:SpecifiedTradePaymentTerms>
        <ram:Description>${esc(data.paymentTerms)}</ram:Description>${due}
      </ram:SpecifiedTradePaymentTerms>
      <ram:SpecifiedTradeSettlementHeaderMonetarySummation>
        <ram:LineTotalAmount>${amt(t.lineTotal)}</ram:LineTotalAmount>
        <ram:TaxBasisTotalAmount>${amt(t.lineTotal)}</ram:TaxBasisTotalAmount>
        <ram:TaxTotalAmount currencyID="${data.currency}">${amt(t.taxTotal)}</ram:TaxTotalAmount>
        <ram:GrandTotalAmount>${amt(t.grandTotal)}</ram:GrandTotalAmount>
        <ram:DuePayableAmount>${amt(t.grandTotal)}</ram:DuePayableAmount>
      </ram:SpecifiedTradeSettlementHeaderMonetarySummation>${preceding}
    </ram:ApplicableHeaderTradeSettlement>
  </rsm:SupplyChainTradeTransaction>
</rsm:CrossIndustryInvoice>
`;
}

export function buildUbl(data: InvoiceData): string {
  const t = invoiceTotals(data);
  const s = data.seller;
  const b = data.buyer;
  const c = data.currency;
  const taxCategory = (rate: number, tag: string): string =>
    `<cac:${tag}><cbc:ID>${category(rate)}</cbc:ID><cbc:Percent>${rate}</cbc:Percent>${
      rate === 0 && tag === 'TaxCategory' ? `<cbc:TaxExemptionReason>${REVERSE_CHARGE}</cbc:TaxExemptionReason>` : ''
    }<cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:${tag}>`;
  const party = (
    p: { name: string; street: string; postcode: string; city: string; country: string },
    extra: string,
    endpoint: string,
    contact = '',
  ): string => `
    <cac:Party>
      <cbc:EndpointID schemeID="EM">${esc(endpoint)}</cbc:EndpointID>
      <cac:PartyName><cbc:Name>${esc(p.name)}</cbc:Name></cac:PartyName>
      <cac:PostalAddress>
        <cbc:StreetName>${esc(p.street)}</cbc:StreetName><cbc:CityName>${esc(p.city)}</cbc:CityName>
        <cbc:PostalZone>${esc(p.postcode)}</cbc:PostalZone>
        <cac:Country><cbc:IdentificationCode>${p.country}</cbc:IdentificationCode></cac:Country>
      </cac:PostalAddress>${extra}
      <cac:PartyLegalEntity><cbc:RegistrationName>${esc(p.name)}</cbc:RegistrationName></cac:PartyLegalEntity>${contact}
    </cac:Party>`;
  const lines = data.lines
    .map(
      (l, i) => `
  <cac:InvoiceLine>
    <cbc:ID>${i + 1}</cbc:ID>
    <cbc:InvoicedQuantity unitCode="${l.unit}">${qty(l.quantity)}</cbc:InvoicedQuantity>
    <cbc:LineExtensionAmount currencyID="${c}">${amt(t.lines[i]!.amount)}</cbc:LineExtensionAmount>
    <cac:Item><cbc:Name>${esc(l.name)}</cbc:Name>${taxCategory(l.vatRate, 'ClassifiedTaxCategory')}</cac:Item>
    <cac:Price><cbc:PriceAmount currencyID="${c}">${amt(l.unitPrice)}</cbc:PriceAmount></cac:Price>
  </cac:InvoiceLine>`,
    )
    .join('');
  const subtotals = t.byRate
    .map(
      (r) => `
    <cac:TaxSubtotal>
      <cbc:TaxableAmount currencyID="${c}">${amt(r.basis)}</cbc:TaxableAmount>
      <cbc:TaxAmount currencyID="${c}">${amt(r.tax)}</cbc:TaxAmount>
      ${taxCategory(r.rate, 'TaxCategory')}
    </cac:TaxSubtotal>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<ubl:Invoice xmlns:ubl="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
  xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"
  xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:CustomizationID>${GUIDELINES.xrechnung}</cbc:CustomizationID>
  <cbc:ProfileID>urn:fdc:peppol.eu:2017:poacc:billing:01:1.0</cbc:ProfileID>
  <cbc:ID>${esc(data.number)}</cbc:ID>
  <cbc:IssueDate>${data.issueDate}</cbc:IssueDate>${
    data.dueDate
      ? `
  <cbc:DueDate>${data.dueDate}</cbc:DueDate>`
      : ''
  }
  <cbc:InvoiceTypeCode>${data.typeCode}</cbc:InvoiceTypeCode>
  <cbc:DocumentCurrencyCode>${c}</cbc:DocumentCurrencyCode>
  <cbc:BuyerReference>${esc(b.reference)}</cbc:BuyerReference>
  <cac:AccountingSupplierParty>${party(
    s,
    `
      <cac:PartyTaxScheme><cbc:CompanyID>${esc(s.vatId.replace(/\s+/g, ''))}</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>`,
    s.email,
    `
      <cac:Contact><cbc:Name>${CONTACT}</cbc:Name><cbc:Telephone>${esc(s.phone)}</cbc:Telephone><cbc:ElectronicMail>${esc(s.email)}</cbc:ElectronicMail></cac:Contact>`,
  )}
  </cac:AccountingSupplierParty>
  <cac:AccountingCustomerParty>${party(b, '', 'rechnungseingang@lindenau.example')}
  </cac:AccountingCustomerParty>
  <cac:Delivery><cbc:ActualDeliveryDate>${data.deliveryDate}</cbc:ActualDeliveryDate></cac:Delivery>
  <cac:PaymentMeans>
    <cbc:PaymentMeansCode>58</cbc:PaymentMeansCode>
    <cbc:PaymentID>${esc(data.number)}</cbc:PaymentID>
    <cac:PayeeFinancialAccount><cbc:ID>${s.iban.replace(/\s+/g, '')}</cbc:ID></cac:PayeeFinancialAccount>
  </cac:PaymentMeans>
  <cac:PaymentTerms><cbc:Note>${esc(data.paymentTerms)}</cbc:Note></cac:PaymentTerms>
  <cac:TaxTotal>
    <cbc:TaxAmount currencyID="${c}">${amt(t.taxTotal)}</cbc:TaxAmount>${subtotals}
  </cac:TaxTotal>
  <cac:LegalMonetaryTotal>
    <cbc:LineExtensionAmount currencyID="${c}">${amt(t.lineTotal)}</cbc:LineExtensionAmount>
    <cbc:TaxExclusiveAmount currencyID="${c}">${amt(t.lineTotal)}</cbc:TaxExclusiveAmount>
    <cbc:TaxInclusiveAmount currencyID="${c}">${amt(t.grandTotal)}</cbc:TaxInclusiveAmount>
    <cbc:PayableAmount currencyID="${c}">${amt(t.grandTotal)}</cbc:PayableAmount>
  </cac:LegalMonetaryTotal>${lines}
</ubl:Invoice>
`;
}

function xmp(title: string, author: string, date: string, fileName: string, conformance: string): string {
  return `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/">
   <pdfaid:part>3</pdfaid:part><pdfaid:conformance>B</pdfaid:conformance>
  </rdf:Description>
  <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">
   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">${esc(title)}</rdf:li></rdf:Alt></dc:title>
   <dc:creator><rdf:Seq><rdf:li>${esc(author)}</rdf:li></rdf:Seq></dc:creator>
  </rdf:Description>
  <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/">
   <xmp:CreateDate>${date}T09:00:00Z</xmp:CreateDate><xmp:ModifyDate>${date}T09:00:00Z</xmp:ModifyDate>
  </rdf:Description>
  <rdf:Description rdf:about="" xmlns:fx="urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#">
   <fx:DocumentType>INVOICE</fx:DocumentType><fx:DocumentFileName>${fileName}</fx:DocumentFileName>
   <fx:Version>1.0</fx:Version><fx:ConformanceLevel>${conformance}</fx:ConformanceLevel>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>`;
}

/** Attaches the XML as an associated file and adds the XMP packet readers look for. */
export async function attachInvoiceXml(
  pdf: PDFDocument,
  xml: string,
  fileName: 'factur-x.xml' | 'xrechnung.xml',
  meta: { title: string; author: string; date: string },
): Promise<void> {
  const when = new Date(`${meta.date}T09:00:00Z`);
  await pdf.attach(new TextEncoder().encode(xml), fileName, {
    mimeType: 'application/xml',
    description: fileName === 'factur-x.xml' ? 'Factur-X' : 'XRechnung',
    creationDate: when,
    modificationDate: when,
    afRelationship: AFRelationship.Alternative,
  });
  const conformance = fileName === 'factur-x.xml' ? 'EN 16931' : 'XRECHNUNG';
  const stream = pdf.context.stream(xmp(meta.title, meta.author, meta.date, fileName, conformance), {
    Type: 'Metadata',
    Subtype: 'XML',
  });
  pdf.catalog.set(PDFName.of('Metadata'), pdf.context.register(stream));
}
