/**
 * The words the French, Dutch, Spanish and Italian templates of the committed corpus print: a wording of their
 * own, apart from both wordings of ../languages.ts (the held-out plan's). Dates and amounts are written through
 * the helpers of ../languages.ts (Intl, each language's own conventions).
 */
import type { EuLang } from '../parties-eu.ts';

export interface BillingWords {
  invoice: string;
  creditNote: string;
  reminder: string;
  number: string;
  creditNumber: string;
  issued: string;
  due: string;
  customer: string;
  order: string;
  item: string;
  qty: string;
  price: string;
  amount: string;
  base: string;
  vat: (rate: number) => string;
  gross: string;
  creditTotal: string;
  /** The payment term in days, as a sentence. */
  terms: (days: number) => string;
  /** The payment date, as a sentence. */
  payBy: (date: string) => string;
  /** The credit note's reason, naming the invoice it corrects. */
  corrects: (invoice: string, date: string) => string;
  refund: string;
  /** The reminder's opening, naming the unpaid invoice. */
  unpaid: (invoice: string, date: string) => string;
  invoiceAmount: string;
  fee: string;
  outstanding: string;
  settle: (date: string) => string;
  regards: string;
  bank: string;
}

export const BILLING: Record<EuLang, BillingWords> = {
  fr: {
    invoice: 'FACTURE',
    creditNote: 'AVOIR',
    reminder: 'Relance : facture impayée',
    number: 'N° de facture',
    creditNumber: 'N° d’avoir',
    issued: 'Date d’émission',
    due: 'Échéance',
    customer: 'Réf. client',
    order: 'Bon de commande',
    item: 'Article',
    qty: 'Nb',
    price: 'PU',
    amount: 'Total',
    base: 'Base HT',
    vat: (rate) => `TVA (${rate} %)`,
    gross: 'Montant TTC',
    creditTotal: 'Montant de l’avoir',
    terms: (days) => `Conditions de paiement : ${days} jours net, par virement.`,
    payBy: (date) => `Merci d’effectuer votre règlement au plus tard le ${date}.`,
    corrects: (invoice, date) => `Cet avoir annule et remplace en partie notre facture ${invoice} du ${date}.`,
    refund: 'Le montant vous sera remboursé par virement sous huit jours.',
    unpaid: (invoice, date) =>
      `Sauf erreur de notre part, la facture ${invoice} du ${date} reste à ce jour impayée malgré l’échéance dépassée.`,
    invoiceAmount: 'Montant facturé',
    fee: 'Frais de relance',
    outstanding: 'Reste dû',
    settle: (date) => `Nous vous remercions de bien vouloir régulariser la situation avant le ${date}.`,
    regards: 'Veuillez agréer nos salutations distinguées.',
    bank: 'Coordonnées bancaires',
  },
  nl: {
    invoice: 'FACTUUR',
    creditNote: 'CREDITNOTA',
    reminder: 'Betalingsherinnering',
    number: 'Factuurnr.',
    creditNumber: 'Creditnotanr.',
    issued: 'Datum',
    due: 'Uiterste betaaldatum',
    customer: 'Relatienummer',
    order: 'Uw referentie',
    item: 'Artikel',
    qty: 'Stuks',
    price: 'Prijs per stuk',
    amount: 'Totaal',
    base: 'Totaal excl. btw',
    vat: (rate) => `Btw ${rate}%`,
    gross: 'Totaal incl. btw',
    creditTotal: 'Te crediteren',
    terms: (days) => `Wij verzoeken u het bedrag binnen ${days} dagen over te maken.`,
    payBy: (date) => `Graag ontvangen wij uw betaling uiterlijk ${date}.`,
    corrects: (invoice, date) => `Deze creditnota heeft betrekking op factuur ${invoice} van ${date}.`,
    refund: 'Het bedrag storten wij binnen vijf werkdagen terug op uw rekening.',
    unpaid: (invoice, date) =>
      `Volgens onze administratie is factuur ${invoice} van ${date} nog niet betaald, hoewel de betaaltermijn is verstreken.`,
    invoiceAmount: 'Factuurbedrag',
    fee: 'Administratiekosten',
    outstanding: 'Openstaand saldo',
    settle: (date) => `Wilt u het openstaande saldo vóór ${date} voldoen?`,
    regards: 'Met vriendelijke groet,',
    bank: 'Rekeningnummer',
  },
  es: {
    invoice: 'FACTURA',
    creditNote: 'FACTURA RECTIFICATIVA',
    reminder: 'Aviso de impago',
    number: 'Factura n.º',
    creditNumber: 'Rectificativa n.º',
    issued: 'Fecha',
    due: 'Fecha de vencimiento',
    customer: 'Código de cliente',
    order: 'Su pedido',
    item: 'Descripción del trabajo',
    qty: 'Uds.',
    price: 'Precio ud.',
    amount: 'Importe',
    base: 'Base',
    vat: (rate) => `IVA ${rate} %`,
    gross: 'Total factura',
    creditTotal: 'Total a devolver',
    terms: (days) => `Condiciones de pago: transferencia bancaria a ${days} días fecha factura.`,
    payBy: (date) => `Rogamos realice el pago antes del ${date}.`,
    corrects: (invoice, date) => `Rectifica la factura ${invoice} de fecha ${date} por devolución de material.`,
    refund: 'Le abonaremos el importe en su cuenta en los próximos días.',
    unpaid: (invoice, date) => `Le recordamos que la factura ${invoice} emitida el ${date} continúa pendiente de pago.`,
    invoiceAmount: 'Importe de la factura',
    fee: 'Gastos de gestión',
    outstanding: 'Saldo pendiente',
    settle: (date) => `Le rogamos que abone el saldo pendiente antes del ${date}.`,
    regards: 'Atentamente,',
    bank: 'Cuenta bancaria',
  },
  it: {
    invoice: 'FATTURA',
    creditNote: 'NOTA DI CREDITO',
    reminder: 'Sollecito di pagamento',
    number: 'Fattura nr.',
    creditNumber: 'Nota di credito nr.',
    issued: 'Data emissione',
    due: 'Scadenza pagamento',
    customer: 'Cod. cliente',
    order: 'Targa veicolo',
    item: 'Descrizione intervento',
    qty: 'Qtà',
    price: 'Prezzo unit.',
    amount: 'Totale',
    base: 'Totale imponibile',
    vat: (rate) => `IVA ${rate}%`,
    gross: 'Totale documento',
    creditTotal: 'Totale nota di credito',
    terms: (days) => `Modalità di pagamento: bonifico a ${days} giorni data fattura.`,
    payBy: (date) => `Si prega di effettuare il pagamento entro il ${date}.`,
    corrects: (invoice, date) => `Storno parziale della fattura ${invoice} del ${date}.`,
    refund: 'L’importo verrà rimborsato con bonifico.',
    unpaid: (invoice, date) =>
      `dai nostri controlli risulta ancora insoluta la fattura ${invoice} del ${date}, già scaduta.`,
    invoiceAmount: 'Importo fattura',
    fee: 'Spese di sollecito',
    outstanding: 'Importo da saldare',
    settle: (date) => `La invitiamo a provvedere al saldo entro il ${date}.`,
    regards: 'Distinti saluti',
    bank: 'Coordinate bancarie',
  },
};

export const VAT_RATES: Record<EuLang, number> = { fr: 20, nl: 21, es: 21, it: 22 };

/** Contact words of the letterheads. */
export const CONTACT: Record<EuLang, { phone: string; vatId: string }> = {
  fr: { phone: 'Téléphone', vatId: 'TVA intracom.' },
  nl: { phone: 'Telefoon', vatId: 'Btw-id' },
  es: { phone: 'Teléfono', vatId: 'CIF' },
  it: { phone: 'Telefono', vatId: 'Partita IVA' },
};
