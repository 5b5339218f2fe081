/**
 * Invoices, credit notes and payment reminders in all six languages with the variety real senders show: the number's
 * label in each language's forms ("Rechnungsnummer", "N° de facture", "Factuur nr.", "Número de factura", "Fattura
 * n°", "Invoice #"), printed left of its value or above it (a header row over a row of values), totals labelled or
 * as a bare column, the currency before or after the amount ("1.234,56 €", "€ 12,-"), dates numeric in the country's
 * order or in words, and payment terms that give the due date. Own wording: none of it is the held-out plan's
 * (../languages.ts) or the eu-* templates'. Picked by a plan entry's `template: 'variety'`.
 */
import { addDays, round2, type Lang } from '../format.ts';
import { date, number } from '../languages.ts';
import type { Block, BuiltDocument, DocModel } from '../model.ts';
import { cityLine } from '../parties.ts';
import type { Rng } from '../rng.ts';
import { refNumber, truth, type Ctx } from './common.ts';

interface Words {
  invoice: string;
  creditNote: string;
  reminder: string;
  /** Two forms of the invoice number's label; the variant picks one. */
  number: [string, string];
  creditNumber: string;
  issued: string;
  /** A letter's date (a reminder is no invoice, so not "invoice date"). */
  dated: string;
  due: string;
  customer: string;
  description: string;
  qty: string;
  unitPrice: string;
  lineTotal: string;
  net: string;
  vat: string;
  gross: string;
  /** Payment terms that give the due date: `days` after the document date. */
  terms: (days: number) => string;
  payBy: (when: string) => string;
  refers: (invoice: string, when: string) => string;
  overdue: (invoice: string, when: string) => string;
  owed: string;
  fee: string;
  settle: (when: string) => string;
  phone: string;
  vatId: string;
}

const WORDS: Record<Lang, Words> = {
  de: {
    invoice: 'Rechnung',
    creditNote: 'Gutschrift',
    reminder: 'Mahnung',
    number: ['Rechnungsnummer', 'Rechnung Nr.'],
    creditNumber: 'Gutschrift Nr.',
    issued: 'Rechnungsdatum',
    dated: 'Datum',
    due: 'Fälligkeitsdatum',
    customer: 'Kunden-Nr.',
    description: 'Leistung',
    qty: 'Anz.',
    unitPrice: 'Einzelpreis',
    lineTotal: 'Summe',
    net: 'Nettobetrag',
    vat: 'zzgl. MwSt.',
    gross: 'Gesamtbetrag',
    terms: (days) => `Bitte begleichen Sie den Betrag innerhalb von ${days} Tagen ohne Abzug.`,
    payBy: (when) => `Bitte überweisen Sie den Betrag bis zum ${when}.`,
    refers: (invoice, when) => `Wir schreiben Ihnen den Betrag aus Rechnung ${invoice} vom ${when} gut.`,
    overdue: (invoice, when) => `Unsere Rechnung ${invoice} vom ${when} ist leider noch offen.`,
    owed: 'Offener Betrag',
    fee: 'Mahngebühr',
    settle: (when) => `Bitte gleichen Sie den offenen Betrag bis spätestens ${when} aus.`,
    phone: 'Tel.',
    vatId: 'USt-IdNr.',
  },
  en: {
    invoice: 'Invoice',
    creditNote: 'Credit Note',
    reminder: 'Overdue Account Reminder',
    number: ['Invoice #', 'Invoice no.'],
    creditNumber: 'Credit note no.',
    issued: 'Date of issue',
    dated: 'Date',
    due: 'Payment due',
    customer: 'Account ref.',
    description: 'Item',
    qty: 'Units',
    unitPrice: 'Rate',
    lineTotal: 'Line total',
    net: 'Net',
    vat: 'VAT',
    gross: 'Total payable',
    terms: (days) => `Terms: strictly ${days} days net from the date of issue.`,
    payBy: (when) => `Kindly remit payment on or before ${when}.`,
    refers: (invoice, when) => `This credit relates to our invoice ${invoice} issued ${when}.`,
    overdue: (invoice, when) => `Our records show invoice ${invoice} of ${when} remains unpaid.`,
    owed: 'Balance outstanding',
    fee: 'Late payment fee',
    settle: (when) => `Please settle the balance by ${when}.`,
    phone: 'Tel',
    vatId: 'VAT Reg.',
  },
  fr: {
    invoice: 'Facture',
    creditNote: 'Facture d’avoir',
    reminder: 'Rappel de paiement',
    number: ['N° de facture', 'Facture nº'],
    creditNumber: 'N° d’avoir',
    issued: 'Date',
    dated: 'Date du courrier',
    due: 'Échéance',
    customer: 'Code client',
    description: 'Désignation',
    qty: 'Qté',
    unitPrice: 'P.U. HT',
    lineTotal: 'Montant HT',
    net: 'Total HT',
    vat: 'TVA',
    gross: 'Net à payer',
    terms: (days) => `Règlement par virement à ${days} jours date de facture.`,
    payBy: (when) => `Merci de régler cette facture au plus tard le ${when}.`,
    refers: (invoice, when) => `Avoir établi sur notre facture ${invoice} du ${when}.`,
    overdue: (invoice, when) => `Sauf erreur de notre part, la facture ${invoice} du ${when} reste impayée.`,
    owed: 'Solde restant dû',
    fee: 'Indemnité de retard',
    settle: (when) => `Nous vous remercions de régler ce solde avant le ${when}.`,
    phone: 'Tél.',
    vatId: 'N° TVA',
  },
  nl: {
    invoice: 'Factuur',
    creditNote: 'Creditnota',
    reminder: 'Herinnering',
    number: ['Factuurnummer', 'Factuur nr.'],
    creditNumber: 'Creditnotanummer',
    issued: 'Factuurdatum',
    dated: 'Datum',
    due: 'Vervaldatum',
    customer: 'Klantnummer',
    description: 'Omschrijving',
    qty: 'Aantal',
    unitPrice: 'Stukprijs',
    lineTotal: 'Bedrag',
    net: 'Totaal excl. btw',
    vat: 'Btw',
    gross: 'Totaal incl. btw',
    terms: (days) => `Gelieve dit bedrag binnen ${days} dagen na factuurdatum over te maken.`,
    payBy: (when) => `Wij verzoeken u het bedrag uiterlijk ${when} te betalen.`,
    refers: (invoice, when) => `Deze creditnota hoort bij onze factuur ${invoice} van ${when}.`,
    overdue: (invoice, when) => `Wij hebben de betaling van factuur ${invoice} van ${when} nog niet ontvangen.`,
    owed: 'Nog te betalen',
    fee: 'Aanmaningskosten',
    settle: (when) => `Wij verzoeken u dit bedrag uiterlijk ${when} te voldoen.`,
    phone: 'Tel.',
    vatId: 'Btw-nr.',
  },
  es: {
    invoice: 'Factura',
    creditNote: 'Abono',
    reminder: 'Recordatorio de pago',
    number: ['Número de factura', 'Factura nº'],
    creditNumber: 'Abono nº',
    issued: 'Fecha de emisión',
    dated: 'Fecha',
    due: 'Vencimiento',
    customer: 'Nº cliente',
    description: 'Concepto',
    qty: 'Cant.',
    unitPrice: 'Precio',
    lineTotal: 'Importe',
    net: 'Base imponible',
    vat: 'IVA',
    gross: 'Total factura',
    terms: (days) => `Forma de pago: transferencia a ${days} días fecha factura.`,
    payBy: (when) => `Le rogamos efectúe el pago antes del ${when}.`,
    refers: (invoice, when) => `Abono correspondiente a nuestra factura ${invoice} del ${when}.`,
    overdue: (invoice, when) => `Según nuestros registros, la factura ${invoice} del ${when} sigue sin pagar.`,
    owed: 'Importe pendiente',
    fee: 'Gastos de reclamación',
    settle: (when) => `Le rogamos que pague el importe pendiente antes del ${when}.`,
    phone: 'Tfno.',
    vatId: 'NIF',
  },
  it: {
    invoice: 'Fattura',
    creditNote: 'Nota di credito',
    reminder: 'Sollecito',
    number: ['Numero fattura', 'Fattura n°'],
    creditNumber: 'Nota di credito n°',
    issued: 'Data documento',
    dated: 'Data',
    due: 'Data scadenza',
    customer: 'Cod. cliente',
    description: 'Descrizione',
    qty: 'Q.tà',
    unitPrice: 'Prezzo',
    lineTotal: 'Importo',
    net: 'Imponibile',
    vat: 'IVA',
    gross: 'Totale documento',
    terms: (days) => `Pagamento: bonifico bancario a ${days} giorni data fattura.`,
    payBy: (when) => `Si prega di effettuare il pagamento entro il ${when}.`,
    refers: (invoice, when) => `Storno della nostra fattura ${invoice} del ${when}.`,
    overdue: (invoice, when) => `Dai nostri controlli la fattura ${invoice} del ${when} risulta ancora da pagare.`,
    owed: 'Importo da saldare',
    fee: 'Spese di sollecito',
    settle: (when) => `Vi preghiamo di saldare l’importo entro il ${when}.`,
    phone: 'Tel.',
    vatId: 'P. IVA',
  },
};

const VAT_RATE: Record<Lang, number> = { de: 19, en: 20, fr: 20, nl: 21, es: 21, it: 22 };

/** Invented goods and services of a small trade business; prices in the sender's currency. */
const ITEMS: ReadonlyArray<readonly [string, number, number]> = [
  ['Parquet oak 14 mm (m²)', 38, 62],
  ['Skirting board (m)', 6, 11],
  ['Labour (h)', 44, 68],
  ['Sanding and oiling (m²)', 12, 19],
  ['Travel flat rate', 20, 45],
  ['Underlay (roll)', 29, 48],
];

interface Line {
  name: string;
  qty: number;
  price: number;
}

function lines(rng: Rng, count: number): Line[] {
  return [...ITEMS]
    .sort(() => rng.next() - 0.5)
    .slice(0, count)
    .map(([name, low, high]) => ({ name, qty: rng.int(1, 6), price: rng.amount(low, high) }));
}

/**
 * How the amount is written, by variant: the language's number with the symbol after it ("1.234,56 €"), the symbol
 * before it ("€ 1.234,56"), or the ISO code before it ("EUR 1.234,56"); a whole amount may end in ",-" in German and
 * Dutch ("€ 12,-").
 */
function amountText(lang: Lang, value: number, currency: string, variant: number): string {
  const symbol = currency === 'EUR' ? '€' : currency === 'GBP' ? '£' : '$';
  const whole = Number.isInteger(value) && (lang === 'de' || lang === 'nl');
  const figure = whole ? `${number(lang, value).replace(/[.,]00$/, '')},-` : number(lang, value);
  switch (variant % 3) {
    case 0:
      return `${figure} ${symbol}`;
    case 1:
      return `${symbol} ${figure}`;
    default:
      return `${currency} ${figure}`;
  }
}

/** The dates of a document: in words on odd variants, else numeric in the language's order. */
const dateText = (ctx: Ctx, iso: string): string => date(ctx.lang, iso, ctx.opts.variant % 2 === 1);

function letterhead(ctx: Ctx): DocModel['letterhead'] {
  const { s } = ctx;
  const w = WORDS[ctx.lang];
  return {
    name: s.name,
    tagline: s.tagline,
    lines: [s.street, cityLine(s), `${w.phone} ${s.phone}`, s.email, ...(s.vatId ? [`${w.vatId} ${s.vatId}`] : [])],
  };
}

function model(ctx: Ctx, blocks: Block[]): DocModel {
  const { s } = ctx;
  const footer: string[][] = [[s.name, s.street, cityLine(s)]];
  if (s.registry) footer[0]!.push(s.registry);
  if (s.bank) footer.push([s.bank.name, `IBAN ${s.bank.iban}`, `BIC ${s.bank.bic}`]);
  return {
    lang: ctx.lang,
    paper: 'a4',
    style: s.style,
    letterhead: letterhead(ctx),
    blocks,
    footer,
    pageNumbers: false,
  };
}

/** The document's number, date and customer: labels left of their values in the window, or a header row above them. */
function headerBlocks(ctx: Ctx, rows: Array<[string, string]>): Block[] {
  if (ctx.opts.variant % 2 === 0)
    return [{ kind: 'window', returnAddress: null, recipient: ctx.r.lines, info: rows, infoPlacement: 'beside' }];
  return [
    { kind: 'window', returnAddress: null, recipient: ctx.r.lines, info: [], infoPlacement: 'none' },
    {
      kind: 'table',
      columns: rows.map(([label]) => ({ header: label, align: 'left' as const, width: 1.4 })),
      rows: [rows.map(([, value]) => value)],
    },
  ];
}

function itemTable(ctx: Ctx, items: Line[]): Block {
  const w = WORDS[ctx.lang];
  return {
    kind: 'table',
    columns: [
      { header: w.description, align: 'left', width: 4 },
      { header: w.qty, align: 'right', width: 0.8 },
      { header: w.unitPrice, align: 'right', width: 1.3 },
      { header: w.lineTotal, align: 'right', width: 1.4 },
    ],
    rows: items.map((i) => [
      i.name,
      String(i.qty),
      number(ctx.lang, i.price),
      number(ctx.lang, round2(i.qty * i.price)),
    ]),
  };
}

/** Net, VAT and gross: labelled on even variants, a bare column of figures (the gross with its currency) on odd ones. */
function totals(ctx: Ctx, net: number, vat: number, gross: number, grossLabel: string): Block {
  const w = WORDS[ctx.lang];
  const money = (value: number): string => amountText(ctx.lang, value, ctx.currency, ctx.opts.variant);
  const labelled = ctx.opts.variant % 4 < 2;
  return {
    kind: 'totals',
    rows: [
      { label: labelled ? w.net : '', value: labelled ? money(net) : number(ctx.lang, net) },
      {
        label: labelled ? `${w.vat} ${VAT_RATE[ctx.lang]} %` : '',
        value: labelled ? money(vat) : number(ctx.lang, vat),
      },
      { label: labelled ? grossLabel : '', value: money(gross), bold: true },
    ],
  };
}

function sums(ctx: Ctx, items: Line[]): { net: number; vat: number; gross: number } {
  const net = round2(items.reduce((sum, i) => sum + round2(i.qty * i.price), 0));
  const vat = round2((net * VAT_RATE[ctx.lang]) / 100);
  return { net, vat, gross: round2(net + vat) };
}

export function buildVarietyInvoice(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const w = WORDS[ctx.lang];
  const items = lines(rng, rng.int(2, 4));
  const { net, vat, gross } = sums(ctx, items);
  const reference = refNumber(rng, rng.pick(['RE-2026-####', '26####', 'INV/####/26', '2026-@####']));
  const days = ctx.opts.dueDays ?? rng.pick([10, 14, 21, 30]);
  const due = addDays(ctx.docDate, days);
  const rows: Array<[string, string]> = [
    [w.number[ctx.opts.variant % 2]!, reference],
    [w.issued, dateText(ctx, ctx.docDate)],
    [w.customer, refNumber(rng, 'K-#####')],
  ];
  if (ctx.opts.due === 'absolute') rows.push([w.due, dateText(ctx, due)]);
  const blocks: Block[] = [
    ...headerBlocks(ctx, rows),
    { kind: 'heading', text: w.invoice },
    itemTable(ctx, items),
    totals(ctx, net, vat, gross, w.gross),
    { kind: 'paragraph', text: ctx.opts.due === 'absolute' ? w.payBy(dateText(ctx, due)) : w.terms(days) },
  ];
  return { model: model(ctx, blocks), truth: truth(ctx, 'invoice', { reference, amount: gross, due }) };
}

export function buildVarietyCreditNote(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const w = WORDS[ctx.lang];
  const items = lines(rng, rng.int(1, 2));
  const { net, vat, gross } = sums(ctx, items);
  const reference = refNumber(rng, rng.pick(['GS-####', 'CR-26-###', 'AV####']));
  const invoice = refNumber(rng, '26####');
  const invoiceDate = addDays(ctx.docDate, -rng.int(12, 45));
  const rows: Array<[string, string]> = [
    [w.creditNumber, reference],
    [w.issued, dateText(ctx, ctx.docDate)],
  ];
  const blocks: Block[] = [
    ...headerBlocks(ctx, rows),
    { kind: 'heading', text: w.creditNote },
    { kind: 'paragraph', text: w.refers(invoice, dateText(ctx, invoiceDate)) },
    itemTable(ctx, items),
    totals(ctx, net, vat, gross, w.gross),
  ];
  return { model: model(ctx, blocks), truth: truth(ctx, 'credit_note', { reference, amount: gross, due: null }) };
}

export function buildVarietyReminder(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const w = WORDS[ctx.lang];
  const invoice = refNumber(rng, rng.pick(['RE-2026-####', '26####']));
  const invoiceDate = addDays(ctx.docDate, -rng.int(30, 50));
  const owed = rng.amount(90, 900);
  const fee = rng.pick([5, 10, 15]);
  const total = round2(owed + fee);
  const due = addDays(ctx.docDate, rng.pick([7, 10, 14]));
  const money = (value: number): string => amountText(ctx.lang, value, ctx.currency, ctx.opts.variant);
  const blocks: Block[] = [
    ...headerBlocks(ctx, [
      [w.dated, dateText(ctx, ctx.docDate)],
      [w.customer, refNumber(rng, 'K-#####')],
    ]),
    { kind: 'heading', text: w.reminder },
    { kind: 'paragraph', text: ctx.r.salutation },
    { kind: 'paragraph', text: w.overdue(invoice, dateText(ctx, invoiceDate)) },
    {
      kind: 'pairs',
      valueAlign: 'right',
      rows: [
        [w.invoice, money(owed)],
        [w.fee, money(fee)],
        [w.owed, money(total)],
      ],
      boldRows: [2],
    },
    { kind: 'paragraph', text: w.settle(dateText(ctx, due)) },
  ];
  return { model: model(ctx, blocks), truth: truth(ctx, 'notice', { reference: invoice, amount: total, due }) };
}
