/**
 * Till receipts in French, Dutch, Spanish and Italian: the shop at the top, items, the total, how it was paid
 * (cash with change given, or card), and a tax breakdown under the total, as many tills print it.
 */
import { round2 } from '../format.ts';
import { date, money, number } from '../languages.ts';
import type { Block, BuiltDocument } from '../model.ts';
import type { EuLang } from '../parties-eu.ts';
import { refNumber, truth, type Ctx } from './common.ts';
import { euModel } from './eu-billing.ts';

interface TillWords {
  ticket: string;
  total: string;
  cash: string;
  change: string;
  card: string;
  taxHeader: [string, string, string];
  bye: string;
  /** Goods with their unit price in euros. */
  goods: Array<[string, number]>;
  /** The reduced tax rate food is sold at. */
  rate: number;
}

const TILL: Record<EuLang, TillWords> = {
  fr: {
    ticket: 'Ticket',
    total: 'TOTAL TTC',
    cash: 'Espèces',
    change: 'Rendu',
    card: 'Paiement CB',
    taxHeader: ['Taux', 'HT', 'TVA'],
    bye: 'Merci et bonne journée',
    goods: [
      ['Baguette tradition', 1.3],
      ['Pain aux céréales', 3.2],
      ['Croissant beurre', 1.15],
      ['Tarte aux pommes', 14.5],
      ['Chouquettes x10', 2.6],
      ['Éclair café', 2.9],
    ],
    rate: 5.5,
  },
  nl: {
    ticket: 'Kassabon',
    total: 'Totaalbedrag',
    cash: 'Contant',
    change: 'Wisselgeld',
    card: 'Pinbetaling',
    taxHeader: ['Btw', 'Over', 'Bedrag'],
    bye: 'Tot de volgende keer',
    goods: [
      ['Halfvolle melk 1L', 1.19],
      ['Jonge kaas plakken', 3.49],
      ['Volkoren brood', 2.39],
      ['Appels Elstar 1kg', 2.29],
      ['Hagelslag puur', 2.79],
      ['Koffiebonen 500g', 6.99],
    ],
    rate: 9,
  },
  es: {
    ticket: 'Nº ticket',
    total: 'TOTAL (IVA incl.)',
    cash: 'Efectivo',
    change: 'Cambio',
    card: 'Tarjeta crédito',
    taxHeader: ['Tipo', 'Base', 'Cuota'],
    bye: 'Gracias por su compra',
    goods: [
      ['Tornillos 4x40 (caja)', 3.95],
      ['Cinta americana', 4.5],
      ['Bombilla LED E27', 2.85],
      ['Silicona blanca', 5.2],
      ['Guantes de trabajo', 3.6],
      ['Brocha 50 mm', 2.4],
    ],
    rate: 21,
  },
  it: {
    ticket: 'Doc. nr.',
    total: 'TOTALE EURO',
    cash: 'Contanti',
    change: 'Resto',
    card: 'Bancomat',
    taxHeader: ['Aliquota', 'Imponibile', 'Imposta'],
    bye: 'Arrivederci e grazie',
    goods: [
      ['Pane casereccio kg', 3.8],
      ['Focaccia genovese', 2.5],
      ['Grissini torinesi', 2.2],
      ['Brioche vuota', 1.1],
      ['Crostata di frutta', 12.0],
      ['Pizza al taglio', 3.4],
    ],
    rate: 10,
  },
};

export function buildEuReceipt(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const lang = ctx.lang as EuLang;
  const w = TILL[lang];
  const items = [...w.goods]
    .sort(() => rng.next() - 0.5)
    .slice(0, rng.int(2, 5))
    .map(([name, price]) => ({ name, qty: rng.int(1, 3), price }));
  const total = round2(items.reduce((sum, i) => sum + round2(i.qty * i.price), 0));
  const net = round2(total / (1 + w.rate / 100));
  const ticket = refNumber(rng, rng.pick(['#####', '####-###', '00####']));
  const time = `${String(rng.int(7, 19)).padStart(2, '0')}:${String(rng.int(0, 59)).padStart(2, '0')}`;
  const rows: Array<[string, string]> = [];
  for (const i of items) {
    rows.push([i.qty > 1 ? `${i.qty} x ${i.name}` : i.name, number(lang, round2(i.qty * i.price))]);
  }
  const cash = rng.chance(0.5);
  const given = Math.ceil(total / 10) * 10;
  const payment: Array<[string, string]> = cash
    ? [
        [w.cash, number(lang, given)],
        [w.change, number(lang, round2(given - total))],
      ]
    : [[w.card, number(lang, total)]];
  const blocks: Block[] = [
    { kind: 'paragraph', text: `${w.ticket} ${ticket}`, align: 'center' },
    { kind: 'paragraph', text: `${date(lang, ctx.docDate, false)}  ${time}`, align: 'center' },
    { kind: 'rule' },
    { kind: 'pairs', rows },
    { kind: 'rule' },
    { kind: 'pairs', rows: [[w.total, money(lang, total, ctx.currency)], ...payment], boldRows: [0] },
    { kind: 'rule' },
    {
      kind: 'table',
      columns: w.taxHeader.map((header) => ({ header, align: 'right' as const, width: 1 })),
      rows: [[`${number(lang, w.rate)} %`, number(lang, net), number(lang, round2(total - net))]],
    },
    { kind: 'paragraph', text: w.bye, align: 'center' },
  ];
  return {
    model: euModel(ctx, blocks, 'receipt'),
    truth: truth(ctx, 'receipt', { reference: ticket, amount: total, due: null }),
  };
}
