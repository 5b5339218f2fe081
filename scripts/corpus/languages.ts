/**
 * The six languages of the multilingual templates: how each writes dates and amounts (through Intl, as the
 * language's own conventions have them) and the words a simple invoice or till receipt prints. Every word has two
 * wordings; the held-out plan uses only the second. The committed corpus's French, Dutch, Spanish and Italian
 * documents come from templates/eu-*.ts with wording of their own, so rules tuned on it meet wording they never saw.
 */
import type { Lang } from './format.ts';

export type Wording = 0 | 1;
type Pair = readonly [string, string];

export interface Lexicon {
  locale: string;
  invoice: Pair;
  number: Pair;
  date: Pair;
  due: Pair;
  customer: Pair;
  description: Pair;
  quantity: Pair;
  unitPrice: Pair;
  lineTotal: Pair;
  net: Pair;
  vat: Pair;
  total: Pair;
  /** A sentence with the payment term: {days} days from the invoice date. */
  payWithin: Pair;
  receiptNo: Pair;
  receiptTotal: Pair;
  card: Pair;
  thanks: Pair;
  phone: string;
  vatId: string;
}

export const LEXICONS: Record<Lang, Lexicon> = {
  en: {
    locale: 'en-GB',
    invoice: ['Invoice', 'Tax Invoice'],
    number: ['Invoice no.', 'Our invoice number'],
    date: ['Invoice date', 'Date of issue'],
    due: ['Due date', 'Please pay by'],
    customer: ['Customer no.', 'Account'],
    description: ['Description', 'Details'],
    quantity: ['Qty', 'Units'],
    unitPrice: ['Unit price', 'Rate'],
    lineTotal: ['Amount', 'Line total'],
    net: ['Subtotal', 'Net'],
    vat: ['VAT 20%', 'VAT @ 20%'],
    total: ['Total', 'Balance due'],
    payWithin: ['Payment within {days} days of the invoice date.', 'Our terms are strictly {days} days net.'],
    receiptNo: ['Receipt', 'Trans.'],
    receiptTotal: ['TOTAL', 'TO PAY'],
    card: ['Card', 'Contactless'],
    thanks: ['Thank you!', 'See you soon'],
    phone: 'Tel',
    vatId: 'VAT reg.',
  },
  de: {
    locale: 'de-DE',
    invoice: ['Rechnung', 'Honorarrechnung'],
    number: ['Rechnungsnr.', 'Beleg-Nr.'],
    date: ['Rechnungsdatum', 'Ausgestellt am'],
    due: ['Fällig am', 'Zahlungsziel'],
    customer: ['Kundennr.', 'Ihr Konto'],
    description: ['Bezeichnung', 'Leistung'],
    quantity: ['Menge', 'Anz.'],
    unitPrice: ['Einzelpreis', 'Preis/Einh.'],
    lineTotal: ['Betrag', 'Summe'],
    net: ['Nettobetrag', 'Warenwert netto'],
    vat: ['MwSt. 19 %', 'zzgl. 19 % USt.'],
    total: ['Gesamtbetrag', 'Zahlbetrag'],
    payWithin: [
      'Zahlbar innerhalb von {days} Tagen ab Rechnungsdatum.',
      'Bitte überweisen Sie den Betrag binnen {days} Tagen.',
    ],
    receiptNo: ['Bon-Nr.', 'Beleg'],
    receiptTotal: ['SUMME', 'ZU ZAHLEN'],
    card: ['Karte', 'EC-Zahlung'],
    thanks: ['Vielen Dank!', 'Bis bald!'],
    phone: 'Tel.',
    vatId: 'USt-IdNr.',
  },
  fr: {
    locale: 'fr-FR',
    invoice: ['Facture', "Note d'honoraires"],
    number: ['Facture n°', 'Numéro de pièce'],
    date: ['Date de facture', 'Émise le'],
    due: ["Date d'échéance", 'À régler avant le'],
    customer: ['Code client', 'Votre compte'],
    description: ['Désignation', 'Prestation'],
    quantity: ['Qté', 'Quantité'],
    unitPrice: ['Prix unitaire', 'P.U. HT'],
    lineTotal: ['Montant', 'Total ligne'],
    net: ['Total HT', 'Montant hors taxes'],
    vat: ['TVA 20 %', 'T.V.A. à 20 %'],
    total: ['Total TTC', 'Net à payer'],
    payWithin: ['Paiement à {days} jours date de facture.', 'Règlement sous {days} jours à réception.'],
    receiptNo: ['Ticket n°', 'Transaction'],
    receiptTotal: ['TOTAL', 'À PAYER'],
    card: ['Carte bancaire', 'CB sans contact'],
    thanks: ['Merci de votre visite', 'À bientôt'],
    phone: 'Tél.',
    vatId: 'N° TVA',
  },
  nl: {
    locale: 'nl-NL',
    invoice: ['Factuur', 'Nota'],
    number: ['Factuurnummer', 'Notanummer'],
    date: ['Factuurdatum', 'Datum nota'],
    due: ['Vervaldatum', 'Te betalen vóór'],
    customer: ['Klantnummer', 'Debiteurnr.'],
    description: ['Omschrijving', 'Werkzaamheden'],
    quantity: ['Aantal', 'Aant.'],
    unitPrice: ['Prijs', 'Stukprijs'],
    lineTotal: ['Bedrag', 'Totaal regel'],
    net: ['Subtotaal excl. btw', 'Totaal exclusief'],
    vat: ['Btw 21%', '21% BTW'],
    total: ['Totaal', 'Te betalen'],
    payWithin: ['Gelieve binnen {days} dagen na factuurdatum te betalen.', 'Betaaltermijn: {days} dagen.'],
    receiptNo: ['Bonnr.', 'Transactie'],
    receiptTotal: ['TOTAAL', 'TE BETALEN'],
    card: ['Pin', 'Contactloos'],
    thanks: ['Bedankt en tot ziens', 'Fijne dag!'],
    phone: 'Tel.',
    vatId: 'Btw-nr.',
  },
  es: {
    locale: 'es-ES',
    invoice: ['Factura', 'Factura simplificada'],
    number: ['N.º de factura', 'Número'],
    date: ['Fecha de factura', 'Fecha de emisión'],
    due: ['Vencimiento', 'Fecha límite de pago'],
    customer: ['N.º de cliente', 'Cliente'],
    description: ['Concepto', 'Descripción'],
    quantity: ['Cant.', 'Unidades'],
    unitPrice: ['Precio', 'Precio unitario'],
    lineTotal: ['Importe', 'Total línea'],
    net: ['Base imponible', 'Subtotal'],
    vat: ['IVA 21 %', 'I.V.A. (21%)'],
    total: ['Total', 'Total a pagar'],
    payWithin: ['Pago a {days} días desde la fecha de factura.', 'Forma de pago: transferencia a {days} días.'],
    receiptNo: ['Ticket', 'Operación'],
    receiptTotal: ['TOTAL', 'IMPORTE'],
    card: ['Tarjeta', 'Pago con tarjeta'],
    thanks: ['Gracias por su visita', '¡Hasta pronto!'],
    phone: 'Tel.',
    vatId: 'NIF',
  },
  it: {
    locale: 'it-IT',
    invoice: ['Fattura', 'Fattura n.'],
    number: ['Numero fattura', 'Documento n.'],
    date: ['Data fattura', 'Data documento'],
    due: ['Scadenza', 'Da pagare entro il'],
    customer: ['Codice cliente', 'Cliente n.'],
    description: ['Descrizione', 'Articolo'],
    quantity: ['Q.tà', 'Quantità'],
    unitPrice: ['Prezzo', 'Prezzo unitario'],
    lineTotal: ['Importo', 'Totale riga'],
    net: ['Imponibile', 'Totale imponibile'],
    vat: ['IVA 22%', 'IVA al 22%'],
    total: ['Totale', 'Totale da pagare'],
    payWithin: ['Pagamento a {days} giorni data fattura.', 'Bonifico bancario entro {days} giorni.'],
    receiptNo: ['Scontrino n.', 'Documento commerciale'],
    receiptTotal: ['TOTALE', 'TOTALE COMPLESSIVO'],
    card: ['Carta', 'Pagamento elettronico'],
    thanks: ['Grazie e arrivederci', 'Buona giornata'],
    phone: 'Tel.',
    vatId: 'P.IVA',
  },
};

/** Intl writes some groupings with (narrow) no-break spaces; the corpus fonts and OCR know plain spaces. */
const plainSpaces = (text: string): string => text.replace(/[\u00a0\u202f]/g, ' ');

export function money(lang: Lang, value: number, currency: string): string {
  return plainSpaces(new Intl.NumberFormat(LEXICONS[lang].locale, { style: 'currency', currency }).format(value));
}

export function number(lang: Lang, value: number): string {
  return plainSpaces(
    new Intl.NumberFormat(LEXICONS[lang].locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value),
  );
}

/** The language's numeric date (31/12/2026, 31.12.2026, 31-12-2026) or its date in words (31 décembre 2026). */
export function date(lang: Lang, iso: string, inWords: boolean): string {
  const options: Intl.DateTimeFormatOptions = inWords
    ? { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }
    : { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' };
  return plainSpaces(new Intl.DateTimeFormat(LEXICONS[lang].locale, options).format(new Date(`${iso}T12:00:00Z`)));
}
