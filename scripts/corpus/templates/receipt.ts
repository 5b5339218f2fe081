/** Receipts: till slips (narrow, monospaced, photographed) and A4 receipts. The amount is the total paid. */
import { formatDate, round2 } from '../format.ts';
import type { Block, BuiltDocument, DocModel } from '../model.ts';
import { cityLine } from '../parties.ts';
import { docModel, refNumber, truth, window, type Ctx } from './common.ts';

type Item = [string, number, number]; // name, quantity, unit price

const TILL_ITEMS: Record<string, Item[]> = {
  sonnenschein: [
    ['Duschgel Sensitive 250ml', 1, 1.45],
    ['Zahnpasta Kräuter 75ml', 2, 0.95],
    ['Waschmittel Color 20WL', 1, 5.95],
    ['Handcreme Urea 100ml', 1, 2.45],
    ['Wattepads 120 St.', 1, 0.85],
    ['Shampoo Repair 300ml', 1, 2.75],
    ['Taschentücher 24x9', 1, 2.29],
  ],
  biomarkt: [
    ['Bio Vollmilch 3,8% 1l', 2, 1.49],
    ['Dinkelvollkornbrot 750g', 1, 4.29],
    ['Äpfel Elstar lose', 1, 3.18],
    ['Bergkäse 48% am Stück', 1, 5.67],
    ['Hafer Drink Barista 1l', 1, 2.19],
    ['Kaffee Crema Bohne 500g', 1, 9.99],
    ['Eier Freiland 10 St.', 1, 3.99],
  ],
  mapleleaf: [
    ['ORG BANANAS', 1, 1.87],
    ['HASS AVOCADO', 3, 1.25],
    ['GREEK YOGURT 32OZ', 1, 5.49],
    ['SOURDOUGH LOAF', 1, 5.99],
    ['COLD BREW 48OZ', 1, 7.49],
    ['ROMAINE HEARTS 3CT', 1, 3.99],
    ['OAT MILK 64OZ', 2, 4.79],
  ],
};

export function buildReceipt(ctx: Ctx): BuiltDocument {
  switch (ctx.s.key) {
    case 'sonnenschein':
    case 'biomarkt':
      return tillDe(ctx);
    case 'tankstelle':
      return fuelDe(ctx);
    case 'mapleleaf':
      return tillUs(ctx);
    case 'yilmaz':
      return quittungDe(ctx);
    default:
      return a4ReceiptEn(ctx);
  }
}

function receiptModel(ctx: Ctx, lines: string[], blocks: Block[]): DocModel {
  const model = docModel(ctx, blocks, { paper: 'receipt', footer: false });
  model.letterhead = { name: ctx.s.name, tagline: null, lines };
  return model;
}

const time = (ctx: Ctx): string =>
  `${String(ctx.rng.int(8, 19)).padStart(2, '0')}:${String(ctx.rng.int(0, 59)).padStart(2, '0')}`;

function tillDe(ctx: Ctx): BuiltDocument {
  const { rng, s } = ctx;
  const items = [...TILL_ITEMS[s.key]!].sort(() => rng.next() - 0.5).slice(0, rng.int(4, 6));
  const reduced = s.key === 'biomarkt';
  const rows: Array<[string, string]> = [];
  for (const [name, q, price] of items) {
    if (q > 1) rows.push([`  ${q} x ${ctx.num(price)}`, '']);
    rows.push([name, `${ctx.num(round2(q * price))} ${reduced ? 'B' : 'A'}`]);
  }
  const total = round2(items.reduce((sum, [, q, p]) => sum + q * p, 0));
  const rate = reduced ? 7 : 19;
  const net = round2(total / (1 + rate / 100));
  const bon = String(rng.int(1000, 9999));
  const t = time(ctx);
  const card = rng.chance(0.5) || s.key === 'biomarkt';
  const given = Math.ceil(total / 10) * 10;
  const payment: Array<[string, string]> = card
    ? [['Geg. girocard', ctx.num(total)]]
    : [
        ['Geg. BAR', ctx.num(given)],
        ['Rückgeld', ctx.num(round2(given - total))],
      ];
  const blocks: Block[] = [
    { kind: 'rule' },
    { kind: 'pairs', rows: [['', 'EUR'], ...rows] },
    { kind: 'rule' },
    { kind: 'pairs', rows: [['SUMME EUR', ctx.num(total)], ...payment], boldRows: [0] },
    { kind: 'rule' },
    {
      kind: 'pairs',
      rows: [
        ['MwSt%   Netto   MwSt', 'Brutto'],
        [`${reduced ? 'B' : 'A'} ${rate}%  ${ctx.num(net)}  ${ctx.num(round2(total - net))}`, ctx.num(total)],
      ],
    },
    { kind: 'rule' },
  ];
  if (card) {
    blocks.push({
      kind: 'paragraph',
      text: `Kartenzahlung girocard\nTerminal-ID ${rng.digits(8)}\nTrace-Nr. ${rng.digits(6)}  Beleg ${rng.digits(4)}\nBetrag EUR ${ctx.num(total)}\nZahlung erfolgt`,
    });
    blocks.push({ kind: 'rule' });
  }
  blocks.push({
    kind: 'paragraph',
    text: `${formatDate(ctx.docDate, 'de-numeric')} ${t}  Bon-Nr. ${bon}  Kasse ${rng.int(1, 4)}`,
  });
  blocks.push({
    kind: 'paragraph',
    text: `TSE-Transaktion: ${rng.digits(6)}\nTSE-Signaturzähler: ${rng.digits(6)}\nTSE-Start: ${ctx.docDate}T${t}:${String(rng.int(10, 59))}.000`,
  });
  blocks.push({ kind: 'paragraph', text: 'Vielen Dank für Ihren Einkauf!', align: 'center' });
  const model = receiptModel(
    ctx,
    s.key === 'sonnenschein'
      ? [`Filiale ${rng.int(100, 400)}`, s.street, cityLine(s), `Tel. ${s.phone}`]
      : [s.street, cityLine(s), `USt-IdNr. ${s.vatId}`],
    blocks,
  );
  return { model, truth: truth(ctx, 'receipt', { reference: bon, amount: total, due: null }) };
}

function fuelDe(ctx: Ctx): BuiltDocument {
  const { rng, s } = ctx;
  const litres = rng.amount(28, 52);
  const price = rng.amount(1.68, 1.86);
  const fuel = round2(litres * price);
  const shop = rng.pick([0, 2.5, 3.9]);
  const total = round2(fuel + shop);
  const net = round2(total / 1.19);
  const bon = `${rng.int(10, 99)}/${rng.digits(5)}`;
  const blocks: Block[] = [
    { kind: 'heading', text: 'Rechnung', size: 9 },
    { kind: 'rule' },
    {
      kind: 'pairs',
      rows: [
        [`Säule ${rng.int(1, 8)}  Super E10`, ''],
        [`${ctx.num(litres)} l x ${price.toFixed(3).replace('.', ',')} EUR/l`, `${ctx.num(fuel)} A`],
        ...(shop ? [['Kaffee Crema groß', `${ctx.num(shop)} A`] as [string, string]] : []),
      ],
    },
    { kind: 'rule' },
    {
      kind: 'pairs',
      rows: [
        ['Gesamtbetrag EUR', ctx.num(total)],
        ['Kartenzahlung Visa', ctx.num(total)],
      ],
      boldRows: [0],
    },
    {
      kind: 'pairs',
      rows: [
        ['Netto', ctx.num(net)],
        ['MwSt A 19,00 %', ctx.num(round2(total - net))],
      ],
    },
    { kind: 'rule' },
    {
      kind: 'paragraph',
      text: `Beleg-Nr. ${bon}\nDatum ${formatDate(ctx.docDate, 'de-short')}  Uhrzeit ${time(ctx)}\nKasse 1  Bed. 04`,
    },
    { kind: 'paragraph', text: 'Gute Fahrt!', align: 'center' },
  ];
  const model = receiptModel(ctx, [s.street, cityLine(s), `St.-Nr. 19/${rng.digits(3)}/${rng.digits(5)}`], blocks);
  return { model, truth: truth(ctx, 'receipt', { reference: bon, amount: total, due: null }) };
}

function tillUs(ctx: Ctx): BuiltDocument {
  const { rng, s } = ctx;
  const items = [...TILL_ITEMS[s.key]!].sort(() => rng.next() - 0.5).slice(0, rng.int(4, 6));
  const rows: Array<[string, string]> = [];
  for (const [name, q, price] of items) {
    if (q > 1) rows.push([`  ${q} @ ${price.toFixed(2)}`, '']);
    rows.push([name, `${round2(q * price).toFixed(2)} F`]);
  }
  const subtotal = round2(items.reduce((sum, [, q, p]) => sum + q * p, 0));
  const bag = 0.05;
  const total = round2(subtotal + bag);
  const trans = rng.digits(6);
  const us = formatDate(ctx.docDate, 'en-us-slash');
  const blocks: Block[] = [
    { kind: 'paragraph', text: `Store #12  Reg 3  Cashier JEN`, align: 'center' },
    { kind: 'rule' },
    { kind: 'pairs', rows },
    { kind: 'pairs', rows: [['PAPER BAG FEE', bag.toFixed(2)]] },
    { kind: 'rule' },
    {
      kind: 'pairs',
      rows: [
        ['SUBTOTAL', subtotal.toFixed(2)],
        ['TAX', '0.00'],
        ['TOTAL', `$${total.toFixed(2)}`],
        [`VISA ****${rng.digits(4)}`, total.toFixed(2)],
        ['CHANGE DUE', '0.00'],
      ],
      boldRows: [2],
    },
    { kind: 'rule' },
    {
      kind: 'paragraph',
      text: `${us} ${rng.int(1, 11)}:${String(rng.int(10, 59))} PM  TRANS# ${trans}\nAUTH CODE ${rng.digits(6)}  APPROVED`,
    },
    {
      kind: 'paragraph',
      text: `ITEMS SOLD ${items.reduce((n, [, q]) => n + q, 0)}\nThank you for shopping with us!\nReturns within 30 days with receipt.`,
      align: 'center',
    },
  ];
  const model = receiptModel(ctx, [s.street, cityLine(s), s.phone], blocks);
  return { model, truth: truth(ctx, 'receipt', { reference: trans, amount: total, due: null }) };
}

function quittungDe(ctx: Ctx): BuiltDocument {
  const { rng, s } = ctx;
  const number = refNumber(rng, 'Q-2026-###');
  const labour = rng.amount(120, 260);
  const parts = rng.amount(60, 180);
  const net = round2(labour + parts);
  const vat = round2(net * 0.19);
  const total = round2(net + vat);
  const blocks: Block[] = [
    window(ctx, [
      ['Quittung Nr.', number],
      ['Datum', ctx.d(ctx.docDate)],
      ['Kennzeichen', `LIN-${refNumber(rng, '@@')} ${rng.int(10, 999)}`],
    ]),
    { kind: 'heading', text: 'Quittung / Barzahlungsbeleg' },
    {
      kind: 'table',
      columns: [
        { header: 'Leistung', align: 'left', width: 5 },
        { header: 'Betrag', align: 'right', width: 1.5 },
      ],
      rows: [
        ['Bremsbeläge hinten erneuert, Bremse gereinigt (Arbeitslohn)', ctx.num(labour)],
        ['Bremsbeläge Satz, Verschleißanzeiger', ctx.num(parts)],
      ],
    },
    {
      kind: 'totals',
      rows: [
        { label: 'Nettobetrag', value: ctx.money(net) },
        { label: 'zzgl. 19 % MwSt.', value: ctx.money(vat) },
        { label: 'Gesamtbetrag', value: ctx.money(total), bold: true },
      ],
    },
    { kind: 'paragraph', text: `Betrag von ${ctx.money(total)} von ${ctx.r.name} in bar dankend erhalten.` },
    { kind: 'paragraph', text: `${s.city}, ${ctx.d(ctx.docDate)}` },
    { kind: 'gap', size: 14 },
    { kind: 'paragraph', text: 'Kemal Yilmaz, Kfz-Meister' },
  ];
  return {
    model: docModel(ctx, blocks),
    truth: truth(ctx, 'receipt', { reference: number, amount: total, due: null }),
  };
}

function a4ReceiptEn(ctx: Ctx): BuiltDocument {
  const { rng, s } = ctx;
  const vatRate = 20;
  let number: string;
  let rows: Array<[string, number]>;
  let intro: string;
  const info: Array<[string, string]> = [];
  if (s.key === 'gadgetcorner') {
    number = refNumber(rng, 'GC-######');
    rows = [
      ['Smartphone case, clear, 6.1"', rng.amount(12, 19)],
      ['Tempered glass screen protector (2 pack)', rng.amount(9, 14)],
      ['65 W USB-C fast charger', rng.amount(29, 39)],
      ['Standard delivery', 3.99],
    ];
    intro = 'Thank you for your order. Your payment has been received and your items are on their way.';
    info.push(
      ['Order number', number],
      ['Order date', ctx.d(ctx.docDate)],
      ['Payment', `Visa ending ${rng.digits(4)}`],
    );
  } else if (s.key === 'quickfix') {
    number = refNumber(rng, 'QF-#####');
    rows = [
      ['2 x tyres 205/55 R16 91V, fitted and balanced', rng.amount(150, 210)],
      ['Tyre disposal (2)', 6],
      ['Wheel alignment check', 29.95],
    ];
    intro = `Vehicle registration: ${refNumber(rng, '@@')}${rng.int(10, 24)} ${refNumber(rng, '@@@')}. Work completed and paid in full.`;
    info.push(['Receipt no.', number], ['Date', ctx.d(ctx.docDate)], ['Job card', refNumber(rng, 'J####')]);
  } else {
    number = refNumber(rng, 'R-#####');
    rows = [
      ['MOT test class 4', 54.85],
      ['Headlamp bulb H7 replaced', rng.amount(14, 22)],
    ];
    intro = 'Received with thanks. This receipt confirms payment for the work listed below.';
    info.push(['Receipt no.', number], ['Date', ctx.d(ctx.docDate)], ['Invoice ref.', refNumber(rng, 'GM/26/####')]);
  }
  const total = round2(rows.reduce((sum, [, v]) => sum + v, 0));
  const vat = round2(total - total / (1 + vatRate / 100));
  const blocks: Block[] = [
    window(ctx, info),
    { kind: 'heading', text: s.key === 'gadgetcorner' ? 'Order confirmation and receipt' : 'RECEIPT' },
    { kind: 'paragraph', text: intro },
    {
      kind: 'table',
      columns: [
        { header: 'Description', align: 'left', width: 5 },
        { header: 'Amount', align: 'right', width: 1.4 },
      ],
      rows: rows.map(([n, v]) => [n, ctx.money(v)]),
    },
    {
      kind: 'totals',
      rows: [
        { label: `Includes VAT at ${vatRate}%`, value: ctx.money(vat) },
        { label: s.key === 'gadgetcorner' ? 'Total paid' : 'Amount paid', value: ctx.money(total), bold: true },
      ],
    },
    {
      kind: 'paragraph',
      text:
        s.key === 'gadgetcorner'
          ? 'Keep this receipt for your warranty. Returns accepted within 30 days.'
          : `Paid by ${rng.pick(['debit card', 'credit card', 'cash'])} on ${ctx.d(ctx.docDate)}. PAID – thank you for your custom.`,
    },
  ];
  return {
    model: docModel(ctx, blocks),
    truth: truth(ctx, 'receipt', { reference: number, amount: total, due: null }),
  };
}
