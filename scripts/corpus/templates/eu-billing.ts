/**
 * Invoices, credit notes and payment reminders in French, Dutch, Spanish and Italian. Three totals layouts, by
 * variant: a labelled totals block, a bare column of figures (net, tax, total in bold: no labels), and a one-row
 * totals table (base, rate, tax, total as its columns).
 */
import { addDays, round2 } from '../format.ts';
import { date, money, number } from '../languages.ts';
import type { Block, BuiltDocument, DocModel } from '../model.ts';
import { cityLine } from '../parties.ts';
import type { EuLang } from '../parties-eu.ts';
import type { Rng } from '../rng.ts';
import { refNumber, truth, type Ctx } from './common.ts';
import { BILLING, CONTACT, VAT_RATES } from './eu-words.ts';

/** Invented work and parts of each language's tradesman; prices in euros. */
const WORK: Record<EuLang, Array<[string, number, number]>> = {
  fr: [
    ['Remplacement chauffe-eau 200 l', 480, 720],
    ['Main-d’œuvre (heure)', 42, 58],
    ['Forfait déplacement', 25, 40],
    ['Mitigeur thermostatique', 90, 160],
    ['Raccords et joints', 12, 35],
  ],
  nl: [
    ['Bitumen dakbedekking (m²)', 28, 45],
    ['Zinken dakgoot (m)', 34, 52],
    ['Arbeidsloon (uur)', 45, 60],
    ['Steiger huur (dag)', 60, 95],
    ['Afvoer bouwafval', 40, 85],
  ],
  es: [
    ['Alicatado de baño (m²)', 24, 38],
    ['Mano de obra (hora)', 28, 40],
    ['Plato de ducha 120x80', 190, 320],
    ['Pintura plástica (m²)', 6, 11],
    ['Retirada de escombros', 60, 110],
  ],
  it: [
    ['Tagliando completo', 140, 260],
    ['Olio motore 5W30 (litri)', 9, 14],
    ['Filtro aria', 18, 32],
    ['Pastiglie freni anteriori', 55, 95],
    ['Manodopera (ore)', 38, 52],
  ],
};

interface Line {
  name: string;
  qty: number;
  price: number;
}

function lines(rng: Rng, ctx: Ctx): Line[] {
  return [...WORK[ctx.lang as EuLang]]
    .sort(() => rng.next() - 0.5)
    .slice(0, rng.int(2, 4))
    .map(([name, low, high]) => ({ name, qty: rng.int(1, 4), price: rng.amount(low, high) }));
}

export function euLetterheadLines(ctx: Ctx): string[] {
  const { s } = ctx;
  const words = CONTACT[ctx.lang as EuLang];
  return [
    s.street,
    cityLine(s),
    `${words.phone} ${s.phone}`,
    s.email,
    ...(s.vatId ? [`${words.vatId} ${s.vatId}`] : []),
    ...(s.registry ? [s.registry] : []),
  ];
}

export function euModel(ctx: Ctx, blocks: Block[], paper: DocModel['paper'] = 'a4'): DocModel {
  const { s } = ctx;
  const words = BILLING[ctx.lang as EuLang];
  const footer: string[][] = [[s.name, s.street, cityLine(s)]];
  if (s.bank) footer.push([words.bank, s.bank.name, `IBAN ${s.bank.iban}`, `BIC ${s.bank.bic}`]);
  return {
    lang: ctx.lang,
    paper,
    style: s.style,
    letterhead: { name: s.name, tagline: s.tagline, lines: euLetterheadLines(ctx) },
    blocks,
    footer: paper === 'receipt' ? [] : footer,
    pageNumbers: false,
  };
}

function totalsBlocks(ctx: Ctx, net: number, vat: number, total: number, labels: [string, string, string]): Block {
  const lang = ctx.lang as EuLang;
  const rate = VAT_RATES[lang];
  switch (ctx.opts.variant % 3) {
    case 1:
      return {
        kind: 'totals',
        rows: [
          { label: '', value: number(lang, net) },
          { label: '', value: number(lang, vat) },
          { label: '', value: money(lang, total, ctx.currency), bold: true },
        ],
      };
    case 2:
      return {
        kind: 'table',
        columns: [
          { header: labels[0], align: 'right', width: 1.5 },
          { header: '%', align: 'right', width: 0.6 },
          { header: BILLING[lang].vat(rate).split(' ')[0]!, align: 'right', width: 1.2 },
          { header: labels[2], align: 'right', width: 1.6 },
        ],
        rows: [[number(lang, net), String(rate), number(lang, vat), money(lang, total, ctx.currency)]],
        boldRows: [0],
      };
    default:
      return {
        kind: 'totals',
        rows: [
          { label: labels[0], value: money(lang, net, ctx.currency) },
          { label: labels[1], value: money(lang, vat, ctx.currency) },
          { label: labels[2], value: money(lang, total, ctx.currency), bold: true },
        ],
      };
  }
}

function itemTable(lang: EuLang, items: Line[]): Block {
  const w = BILLING[lang];
  return {
    kind: 'table',
    columns: [
      { header: w.item, align: 'left', width: 4 },
      { header: w.qty, align: 'right', width: 0.8 },
      { header: w.price, align: 'right', width: 1.3 },
      { header: w.amount, align: 'right', width: 1.3 },
    ],
    rows: items.map((i) => [i.name, String(i.qty), number(lang, i.price), number(lang, round2(i.qty * i.price))]),
  };
}

function sums(lang: EuLang, items: Line[]): { net: number; vat: number; total: number } {
  const net = round2(items.reduce((sum, i) => sum + round2(i.qty * i.price), 0));
  const vat = round2((net * VAT_RATES[lang]) / 100);
  return { net, vat, total: round2(net + vat) };
}

/** A plan's long date style (de-long, en-uk-long, …) asks these templates for dates in words ("3 mars 2026"). */
const datesInWords = (ctx: Ctx): boolean => ctx.opts.dateStyle?.endsWith('-long') ?? false;

export function buildEuInvoice(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const lang = ctx.lang as EuLang;
  const w = BILLING[lang];
  const inWords = datesInWords(ctx);
  const items = lines(rng, ctx);
  const { net, vat, total } = sums(lang, items);
  const ref = refNumber(rng, rng.pick(['F####-###', '2026/####', 'A-#####']).replace('F', lang[0]!.toUpperCase()));
  const days = ctx.opts.dueDays ?? rng.pick([15, 30, 45]);
  const due = addDays(ctx.docDate, days);
  const info: Array<[string, string]> = [
    [w.number, ref],
    [w.issued, date(lang, ctx.docDate, inWords)],
    [w.customer, refNumber(rng, 'C####')],
  ];
  if (ctx.opts.due === 'absolute') info.push([w.due, date(lang, due, inWords)]);
  if (ctx.s.category === 'Car') info.push([w.order, refNumber(rng, '@@ ###@@')]);
  const blocks: Block[] = [
    { kind: 'window', returnAddress: null, recipient: ctx.r.lines, info, infoPlacement: 'beside' },
    { kind: 'heading', text: w.invoice },
    itemTable(lang, items),
    totalsBlocks(ctx, net, vat, total, [w.base, w.vat(VAT_RATES[lang]), w.gross]),
    {
      kind: 'paragraph',
      text: ctx.opts.due === 'absolute' ? w.payBy(date(lang, due, inWords)) : w.terms(days),
    },
  ];
  return { model: euModel(ctx, blocks), truth: truth(ctx, 'invoice', { reference: ref, amount: total, due }) };
}

export function buildEuCreditNote(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const lang = ctx.lang as EuLang;
  const w = BILLING[lang];
  const items = lines(rng, ctx).slice(0, 2);
  const { net, vat, total } = sums(lang, items);
  const ref = refNumber(rng, rng.pick(['AV-####', 'CN####', 'R-2026-###']));
  const invoice = refNumber(rng, '2026/####');
  const invoiceDate = addDays(ctx.docDate, -rng.int(10, 40));
  const blocks: Block[] = [
    {
      kind: 'window',
      returnAddress: null,
      recipient: ctx.r.lines,
      info: [
        [w.creditNumber, ref],
        [w.issued, date(lang, ctx.docDate, false)],
        [w.customer, refNumber(rng, 'C####')],
      ],
      infoPlacement: 'beside',
    },
    { kind: 'heading', text: `${w.creditNote} ${ref}` },
    { kind: 'paragraph', text: w.corrects(invoice, date(lang, invoiceDate, false)) },
    itemTable(lang, items),
    totalsBlocks(ctx, net, vat, total, [w.base, w.vat(VAT_RATES[lang]), w.creditTotal]),
    { kind: 'paragraph', text: w.refund },
  ];
  return {
    model: euModel(ctx, blocks),
    truth: truth(ctx, 'credit_note', { reference: ref, amount: total, due: null }),
  };
}

/** A payment reminder: the notice names the unpaid invoice (its reference), the amount now owed and a new date. */
export function buildEuReminder(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const lang = ctx.lang as EuLang;
  const w = BILLING[lang];
  const invoice = refNumber(rng, rng.pick(['2026/####', 'F####-##']));
  const invoiceDate = addDays(ctx.docDate, -rng.int(35, 60));
  const amount = rng.amount(160, 1200);
  const fee = rng.pick([5, 7.5, 10]);
  const total = round2(amount + fee);
  const due = addDays(ctx.docDate, rng.pick([8, 10, 15]));
  const inWords = datesInWords(ctx);
  const blocks: Block[] = [
    {
      kind: 'window',
      returnAddress: null,
      recipient: ctx.r.lines,
      info: [
        [w.issued, date(lang, ctx.docDate, inWords)],
        [w.customer, refNumber(rng, 'C####')],
      ],
      infoPlacement: 'beside',
    },
    { kind: 'heading', text: w.reminder },
    { kind: 'paragraph', text: ctx.r.salutation },
    { kind: 'paragraph', text: w.unpaid(invoice, date(lang, invoiceDate, inWords)) },
    {
      kind: 'pairs',
      valueAlign: 'right',
      rows: [
        [w.invoiceAmount, money(lang, amount, ctx.currency)],
        [w.fee, money(lang, fee, ctx.currency)],
        [w.outstanding, money(lang, total, ctx.currency)],
      ],
      boldRows: [2],
    },
    { kind: 'paragraph', text: w.settle(date(lang, due, inWords)) },
    { kind: 'paragraph', text: w.regards },
  ];
  return { model: euModel(ctx, blocks), truth: truth(ctx, 'notice', { reference: invoice, amount: total, due }) };
}
