/**
 * Invoices and till receipts in any of the six languages, from the lexicon in ../languages.ts: an invoice with a
 * labelled totals block, one whose totals are a bare column of figures (net, tax, total in bold), and a till
 * receipt. Used by the held-out plan (second wording); the layouts differ from the German and English templates.
 */
import { addDays, round2 } from '../format.ts';
import { date, LEXICONS, money, number, type Wording } from '../languages.ts';
import type { Block, BuiltDocument, DocModel } from '../model.ts';
import { cityLine } from '../parties.ts';
import { refNumber, truth, type Ctx } from './common.ts';

/** Invented line items; prices in the sender's currency. */
const SERVICES = ['Consultation', 'Material', 'Labour (hours)', 'Travel', 'Inspection', 'Design', 'Delivery', 'Setup'];
const GOODS: Array<[string, number]> = [
  ['Espresso', 1.6],
  ['Croissant', 1.9],
  ['Water 0.5 l', 1.2],
  ['Sandwich', 4.5],
  ['Newspaper', 2.8],
  ['Tea', 2.1],
  ['Cake', 3.4],
  ['Juice', 2.6],
];

const VAT_RATE: Record<string, number> = { en: 20, de: 19, fr: 20, nl: 21, es: 21, it: 22 };

function letterheadLines(ctx: Ctx): string[] {
  const { s } = ctx;
  const lex = LEXICONS[ctx.lang];
  return [
    s.street,
    cityLine(s),
    `${lex.phone} ${s.phone}`,
    s.email,
    s.web,
    ...(s.vatId ? [`${lex.vatId} ${s.vatId}`] : []),
  ];
}

function model(ctx: Ctx, blocks: Block[], paper: DocModel['paper'], footer: string[][]): DocModel {
  return {
    lang: ctx.lang,
    paper,
    style: ctx.s.style,
    letterhead: { name: ctx.s.name, tagline: ctx.s.tagline, lines: letterheadLines(ctx) },
    blocks,
    footer,
    pageNumbers: false,
  };
}

export function buildMultilingual(ctx: Ctx, wording: Wording): BuiltDocument {
  return ctx.s.style.family === 'mono' ? tillReceipt(ctx, wording) : invoice(ctx, wording, ctx.opts.variant % 2 === 1);
}

function invoice(ctx: Ctx, w: Wording, bareTotals: boolean): BuiltDocument {
  const { rng, s, lang } = ctx;
  const lex = LEXICONS[lang];
  const inWords = rng.chance(0.5);
  const items = [...SERVICES]
    .sort(() => rng.next() - 0.5)
    .slice(0, rng.int(2, 4))
    .map((name) => ({ name, qty: rng.int(1, 6), price: round2(rng.amount(18, 240)) }));
  const net = round2(items.reduce((sum, i) => sum + i.qty * i.price, 0));
  const rate = VAT_RATE[lang]!;
  const vat = round2((net * rate) / 100);
  const total = round2(net + vat);
  const number_ = refNumber(rng, rng.pick(['@@-####-###', '####/##', '@#####']));
  const days = rng.pick([14, 21, 30]);
  const relative = rng.chance(0.5);
  const due = addDays(ctx.docDate, days);
  const info: Array<[string, string]> = [
    [lex.number[w], number_],
    [lex.date[w], date(lang, ctx.docDate, inWords)],
    [lex.customer[w], refNumber(rng, '#####')],
  ];
  if (!relative) info.push([lex.due[w], date(lang, due, inWords)]);
  const totals = bareTotals
    ? [
        { label: '', value: number(lang, net) },
        { label: '', value: number(lang, vat) },
        { label: '', value: money(lang, total, ctx.currency), bold: true },
      ]
    : [
        { label: lex.net[w], value: money(lang, net, ctx.currency) },
        { label: lex.vat[w], value: money(lang, vat, ctx.currency) },
        { label: lex.total[w], value: money(lang, total, ctx.currency), bold: true },
      ];
  const blocks: Block[] = [
    { kind: 'window', returnAddress: null, recipient: ctx.r.lines, info, infoPlacement: 'beside' },
    { kind: 'heading', text: `${lex.invoice[w]} ${number_}` },
    {
      kind: 'table',
      columns: [
        { header: lex.description[w], align: 'left', width: 4 },
        { header: lex.quantity[w], align: 'right', width: 0.9 },
        { header: lex.unitPrice[w], align: 'right', width: 1.4 },
        { header: lex.lineTotal[w], align: 'right', width: 1.4 },
      ],
      rows: items.map((i) => [i.name, String(i.qty), number(lang, i.price), number(lang, round2(i.qty * i.price))]),
    },
    { kind: 'totals', rows: totals },
  ];
  if (relative) blocks.push({ kind: 'paragraph', text: lex.payWithin[w].replace('{days}', String(days)) });
  const footer = [
    [s.name, s.street, cityLine(s)],
    ...(s.bank ? [[s.bank.name, `IBAN ${s.bank.iban}`, `BIC ${s.bank.bic}`]] : []),
    [...(s.registry ? [s.registry] : []), ...(s.vatId ? [`${lex.vatId} ${s.vatId}`] : [])],
  ];
  return {
    model: model(ctx, blocks, 'a4', footer),
    truth: truth(ctx, 'invoice', { reference: number_, amount: total, due }),
  };
}

function tillReceipt(ctx: Ctx, w: Wording): BuiltDocument {
  const { rng, lang } = ctx;
  const lex = LEXICONS[lang];
  const items = [...GOODS]
    .sort(() => rng.next() - 0.5)
    .slice(0, rng.int(2, 5))
    .map(([name, price]) => ({ name, qty: rng.int(1, 3), price }));
  const total = round2(items.reduce((sum, i) => sum + i.qty * i.price, 0));
  const ticket = refNumber(rng, '####');
  const time = `${String(rng.int(7, 20)).padStart(2, '0')}:${String(rng.int(0, 59)).padStart(2, '0')}`;
  const rows: Array<[string, string]> = [];
  for (const i of items) {
    if (i.qty > 1) rows.push([`  ${i.qty} x ${number(lang, i.price)}`, '']);
    rows.push([i.name, number(lang, round2(i.qty * i.price))]);
  }
  const blocks: Block[] = [
    {
      kind: 'paragraph',
      text: `${date(lang, ctx.docDate, false)}  ${time}   ${lex.receiptNo[w]} ${ticket}`,
      align: 'center',
    },
    { kind: 'rule' },
    { kind: 'pairs', rows },
    { kind: 'rule' },
    {
      kind: 'pairs',
      rows: [
        [lex.receiptTotal[w], money(lang, total, ctx.currency)],
        [lex.card[w], number(lang, total)],
      ],
      boldRows: [0],
    },
    { kind: 'rule' },
    { kind: 'paragraph', text: lex.thanks[w], align: 'center' },
  ];
  return {
    model: model(ctx, blocks, 'receipt', []),
    truth: truth(ctx, 'receipt', { reference: ticket, amount: total, due: null }),
  };
}
