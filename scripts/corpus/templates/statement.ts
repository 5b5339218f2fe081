/**
 * Statements: bank account, credit card, service charges, statement of account. Amount: the closing balance or the
 * amount payable; due date when a payment is requested by a date. Bank and card statements have no reference.
 */
import { addDays, addMonths, endOfMonth, formatDate, round2 } from '../format.ts';
import type { Block, BuiltDocument } from '../model.ts';
import { docModel, greeting, refNumber, truth, window, type Ctx } from './common.ts';

export function buildStatement(ctx: Ctx): BuiltDocument {
  switch (ctx.s.key) {
    case 'volksbank':
      return ctx.opts.variant % 2 === 0 ? accountDe(ctx) : cardDe(ctx);
    case 'schroeder':
      return serviceChargesDe(ctx);
    case 'meridian':
      return accountEn(ctx);
    case 'blueharbor':
      return cardUs(ctx);
    case 'atlas':
      return accountStatementUs(ctx);
    default:
      return waterEn(ctx);
  }
}

const DE_TX: Array<[string, number, number]> = [
  ['Lastschrift Stadtwerke Lindenau GmbH Abschlag Strom', -95, -70],
  ['Kartenzahlung Bio-Markt Grünfeld OHG', -68, -12],
  ['Gehalt/Lohn Kessler Maschinenbau GmbH & Co. KG', 2900, 3300],
  ['Dauerauftrag Miete Wohnbau Südstadt eG', -870, -850],
  ['Lastschrift Telenova Deutschland GmbH Mobilfunk', -40, -25],
  ['Kartenzahlung Tankstelle Nordring', -75, -45],
  ['Überweisung Nordlicht Versicherung AG Beitrag', -180, -95],
  ['Bargeldauszahlung Geldautomat Marktplatz', -200, -50],
  ['Lastschrift Vitalis Fitness GmbH Mitgliedsbeitrag', -45, -29],
  ['Gutschrift Rückerstattung Möbelhaus Krämer', 30, 320],
  ['Kartenzahlung Drogerie Sonnenschein', -35, -8],
  ['Lastschrift Rundfunkbeitrag', -55.08, -55.08],
  ['Kartenzahlung Bäckerei Vogel', -12, -3],
  ['Kartenzahlung Apotheke am Markt', -40, -6],
  ['Kartenzahlung Baumarkt Lindenau', -120, -15],
  ['Online-Zahlung PayPal Europe', -90, -9],
];

/** Standing orders, direct debits and salary come once a month; card payments and cash any number of times. */
const RECURRING = /^(Lastschrift|Dauerauftrag|Gehalt|Überweisung|DD |SALARY|FPO|NETFLIX|Spotify)/;

function transactions(ctx: Ctx, pool: Array<[string, number, number]>, count: number, from: string, to: string) {
  const { rng } = ctx;
  const span = Math.max(1, Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000));
  const used = new Set<string>();
  const repeatable = pool.filter(([text]) => !RECURRING.test(text));
  const tx = Array.from({ length: count }, () => {
    let [text, min, max] = rng.pick(pool);
    if (RECURRING.test(text) && used.has(text)) [text, min, max] = rng.pick(repeatable);
    used.add(text);
    return { date: addDays(from, rng.int(0, span)), text, amount: min === max ? min : rng.amount(min, max) };
  });
  return tx.sort((a, b) => a.date.localeCompare(b.date));
}

/** An opening balance that keeps the account in credit throughout (the closing balance is the amount). */
function positiveOpening(ctx: Ctx, tx: Array<{ amount: number }>): number {
  let low = 0;
  let running = 0;
  for (const t of tx) {
    running += t.amount;
    low = Math.min(low, running);
  }
  return round2(-low + ctx.rng.amount(150, 1800));
}

function accountDe(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const from = `${ctx.docDate.slice(0, 8)}01`;
  const to = ctx.docDate;
  const tx = transactions(ctx, DE_TX, ctx.opts.long ? 34 : 12, from, to);
  const opening = positiveOpening(ctx, tx);
  const closingBalance = round2(opening + tx.reduce((s, t) => s + t.amount, 0));
  const iban = `DE${rng.digits(2)} 5206 1303 ${rng.digits(4)} ${rng.digits(4)} ${rng.digits(2)}`;
  const blocks: Block[] = [
    window(ctx, [
      ['Kontoauszug', `${Number(ctx.docDate.slice(5, 7))}/${ctx.docDate.slice(0, 4)}`],
      ['Blatt', '1'],
      ['IBAN', iban],
      ['Erstellt am', ctx.d(ctx.docDate)],
    ]),
    { kind: 'heading', text: 'Kontoauszug Girokonto' },
    { kind: 'paragraph', text: `Zeitraum ${ctx.d(from)} bis ${ctx.d(to)} · Kontoinhaber: ${ctx.r.name}` },
    {
      kind: 'pairs',
      valueAlign: 'right',
      rows: [[`Alter Kontostand am ${formatDate(addDays(from, -1), 'de-numeric')}`, `${ctx.num(opening)} H`]],
    },
    {
      kind: 'table',
      columns: [
        { header: 'Buchung', align: 'left', width: 0.9 },
        { header: 'Valuta', align: 'left', width: 0.9 },
        { header: 'Vorgang', align: 'left', width: 4.2 },
        { header: 'Betrag EUR', align: 'right', width: 1.3 },
      ],
      rows: tx.map((t) => [
        formatDate(t.date, 'de-numeric').slice(0, 6),
        formatDate(t.date, 'de-numeric').slice(0, 6),
        t.text,
        `${ctx.num(Math.abs(t.amount))} ${t.amount < 0 ? 'S' : 'H'}`,
      ]),
    },
    {
      kind: 'pairs',
      valueAlign: 'right',
      rows: [[`Neuer Kontostand am ${formatDate(to, 'de-numeric')}`, `${ctx.money(closingBalance)} H`]],
      boldRows: [0],
    },
    {
      kind: 'paragraph',
      text: 'Bitte erheben Sie Einwendungen gegen einzelne Buchungen unverzüglich. Guthaben sind als Einlagen nach Maßgabe des Einlagensicherungsgesetzes entschädigungsfähig.',
      size: 7.5,
    },
  ];
  return {
    model: docModel(ctx, blocks, { pageNumbers: true }),
    truth: truth(ctx, 'statement', { reference: null, amount: closingBalance, due: null }),
  };
}

function cardDe(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const to = ctx.docDate;
  const from = addDays(addMonths(to, -1), 1);
  const pool: Array<[string, number, number]> = [
    ['Amazon EU S.a.r.l. Luxemburg', 12, 89],
    ['Deutsche Bahn Fernverkehr', 29, 140],
    ['Hotel Am Dom Köln', 89, 210],
    ['Spotify AB', 10.99, 10.99],
    ['Tankstelle Nordring Lindenau', 45, 80],
    ['IKEA Kassel', 25, 190],
  ];
  const tx = transactions(ctx, pool, rng.int(6, 9), from, to);
  const sum = round2(tx.reduce((s, t) => s + t.amount, 0));
  const debit = addDays(to, rng.int(6, 12));
  const blocks: Block[] = [
    window(ctx, [
      ['Kartennummer', `4871 67** **** ${rng.digits(4)}`],
      ['Abrechnungsdatum', ctx.d(ctx.docDate)],
      ['Kreditrahmen', ctx.money(3000)],
    ]),
    { kind: 'heading', text: 'Kreditkartenabrechnung' },
    { kind: 'paragraph', text: `Abrechnungszeitraum ${ctx.d(from)} – ${ctx.d(to)}` },
    {
      kind: 'table',
      columns: [
        { header: 'Kaufdatum', align: 'left', width: 1.1 },
        { header: 'Buchungsdatum', align: 'left', width: 1.2 },
        { header: 'Verwendungszweck', align: 'left', width: 3.6 },
        { header: 'Betrag EUR', align: 'right', width: 1.2 },
      ],
      rows: tx.map((t) => [
        formatDate(t.date, 'de-numeric'),
        formatDate(addDays(t.date, 1), 'de-numeric'),
        t.text,
        ctx.num(t.amount),
      ]),
    },
    {
      kind: 'pairs',
      valueAlign: 'right',
      rows: [
        ['Saldo der letzten Abrechnung', ctx.money(0)],
        ['Summe Umsätze', ctx.money(sum)],
        ['Abrechnungsbetrag', ctx.money(sum)],
      ],
      boldRows: [2],
    },
    { kind: 'paragraph', text: `Der Abrechnungsbetrag wird am ${ctx.d(debit)} von Ihrem Girokonto eingezogen.` },
  ];
  return { model: docModel(ctx, blocks), truth: truth(ctx, 'statement', { reference: null, amount: sum, due: debit }) };
}

function serviceChargesDe(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const year = Number(ctx.docDate.slice(0, 4)) - 1;
  const number = refNumber(rng, `BK${String(year).slice(2)}-####`);
  const share = rng.int(640, 780) / 10_000;
  const costs: Array<[string, number]> = [
    ['Grundsteuer', rng.int(4200, 5200)],
    ['Wasser/Abwasser', rng.int(9800, 12500)],
    ['Müllbeseitigung', rng.int(3800, 4600)],
    ['Hausreinigung', rng.int(5200, 6400)],
    ['Gartenpflege', rng.int(1800, 2600)],
    ['Allgemeinstrom', rng.int(900, 1300)],
    ['Gebäudeversicherung', rng.int(3100, 3900)],
    ['Hauswart', rng.int(4400, 5600)],
  ];
  const shares = costs.map(([, v]) => round2(v * share));
  const totalShare = round2(shares.reduce((s, v) => s + v, 0));
  const prepaid = round2(Math.floor((totalShare - rng.amount(60, 240)) / 12) * 12);
  const balance = round2(totalShare - prepaid);
  const due = addDays(ctx.docDate, 30);
  const blocks: Block[] = [
    window(ctx, [
      ['Abrechnungs-Nr.', number],
      ['Objekt', 'Gartenstraße 44, Lindenau'],
      ['Mieter-Nr.', refNumber(rng, '44-###')],
      ['Datum', ctx.d(ctx.docDate)],
    ]),
    { kind: 'heading', text: `Betriebskostenabrechnung ${year}` },
    {
      kind: 'paragraph',
      text: `Abrechnungszeitraum: ${formatDate(`${year}-01-01`, 'de-numeric')} bis ${formatDate(`${year}-12-31`, 'de-numeric')} · Ihr Anteil (Wohnfläche): ${(share * 100).toFixed(2).replace('.', ',')} %`,
    },
    {
      kind: 'table',
      columns: [
        { header: 'Kostenart', align: 'left', width: 3 },
        { header: 'Gesamtkosten', align: 'right', width: 1.4 },
        { header: 'Ihr Anteil', align: 'right', width: 1.4 },
      ],
      rows: costs.map(([n, v], i) => [n, ctx.num(v), ctx.num(shares[i]!)]),
    },
    {
      kind: 'pairs',
      valueAlign: 'right',
      rows: [
        ['Summe Ihr Anteil', ctx.money(totalShare)],
        ['abzüglich Vorauszahlungen (12 x ' + ctx.num(prepaid / 12) + ')', ctx.money(-prepaid)],
        ['Nachzahlung', ctx.money(balance)],
      ],
      boldRows: [2],
    },
    {
      kind: 'paragraph',
      text: `Bitte überweisen Sie die Nachzahlung bis zum ${ctx.d(due)} auf unser Konto. Die monatliche Vorauszahlung bleibt unverändert.`,
    },
    { kind: 'paragraph', text: 'Belege können nach Terminvereinbarung in unseren Geschäftsräumen eingesehen werden.' },
  ];
  return { model: docModel(ctx, blocks), truth: truth(ctx, 'statement', { reference: number, amount: balance, due }) };
}

function accountEn(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const to = ctx.docDate;
  const from = addDays(addMonths(to, -1), 1);
  const pool: Array<[string, number, number]> = [
    ['SALARY PINECREST ANALYTICS', 2400, 2900],
    ['DD NORTHWIND ENERGY', -110, -70],
    ['CARD TESCO STORES', -80, -15],
    ['DD SKYLINK MOBILE', -31, -18],
    ['FPO RENT FLAT 3', -1100, -1100],
    ['CARD TRAINLINE', -60, -12],
    ['ATM CASH ASHFORD', -100, -20],
    ['DD HARBOURSIDE INS', -40, -25],
    ['CARD AMAZON MKTPLACE', -70, -8],
  ];
  const tx = transactions(ctx, pool, 11, from, to);
  const opening = positiveOpening(ctx, tx);
  const closingBalance = round2(opening + tx.reduce((s, t) => s + t.amount, 0));
  let running = opening;
  const blocks: Block[] = [
    window(ctx, [
      ['Sort code', `30-${rng.digits(2)}-${rng.digits(2)}`],
      ['Account number', rng.digits(8)],
      ['Statement date', ctx.d(ctx.docDate)],
    ]),
    { kind: 'heading', text: 'Your Everyday account statement' },
    { kind: 'paragraph', text: `${ctx.d(from)} to ${ctx.d(to)}` },
    {
      kind: 'table',
      columns: [
        { header: 'Date', align: 'left', width: 1.1 },
        { header: 'Description', align: 'left', width: 3.4 },
        { header: 'Paid out', align: 'right', width: 1.1 },
        { header: 'Paid in', align: 'right', width: 1.1 },
        { header: 'Balance', align: 'right', width: 1.2 },
      ],
      rows: [
        [formatDate(from, 'en-uk-short'), 'BALANCE BROUGHT FORWARD', '', '', ctx.num(opening)],
        ...tx.map((t) => {
          running = round2(running + t.amount);
          return [
            formatDate(t.date, 'en-uk-short'),
            t.text,
            t.amount < 0 ? ctx.num(-t.amount) : '',
            t.amount > 0 ? ctx.num(t.amount) : '',
            ctx.num(running),
          ];
        }),
      ],
    },
    {
      kind: 'pairs',
      valueAlign: 'right',
      rows: [['Balance carried forward', ctx.money(closingBalance)]],
      boldRows: [0],
    },
    {
      kind: 'paragraph',
      text: 'Your deposits are eligible for protection by the Financial Services Compensation Scheme.',
      size: 7.5,
    },
  ];
  return {
    model: docModel(ctx, blocks),
    truth: truth(ctx, 'statement', { reference: null, amount: closingBalance, due: null }),
  };
}

function cardUs(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const to = ctx.docDate;
  const from = addDays(addMonths(to, -1), 1);
  const pool: Array<[string, number, number]> = [
    ['MAPLE LEAF GROCERS #12 PORTLAND OR', 24, 110],
    ['SHELL OIL 5744 SEATTLE WA', 35, 70],
    ['AMAZON.COM*2K4 SEATTLE WA', 12, 95],
    ['NETFLIX.COM', 15.49, 15.49],
    ['ALASKA AIR 0272 SEATTLE', 180, 420],
    ['STARBUCKS STORE 1182', 5, 14],
  ];
  const tx = transactions(ctx, pool, rng.int(6, 9), from, to);
  const previous = rng.amount(300, 900);
  const purchases = round2(tx.reduce((s, t) => s + t.amount, 0));
  const interest = 0;
  const balance = round2(purchases + interest);
  const due = addDays(to, 25);
  const minimum = Math.max(35, round2(balance * 0.02));
  const blocks: Block[] = [
    window(ctx, [
      ['Account ending', rng.digits(4)],
      ['Closing date', ctx.d(ctx.docDate)],
      ['Payment due date', ctx.d(due)],
      ['Credit limit', ctx.money(8000)],
    ]),
    { kind: 'heading', text: 'Visa Signature Statement' },
    {
      kind: 'pairs',
      valueAlign: 'right',
      rows: [
        ['Previous balance', ctx.money(previous)],
        ['Payments and credits', ctx.money(-previous)],
        ['Purchases', ctx.money(purchases)],
        ['Interest charged', ctx.money(interest)],
        ['New balance', ctx.money(balance)],
        ['Minimum payment due', ctx.money(minimum)],
      ],
      boldRows: [4],
    },
    {
      kind: 'table',
      columns: [
        { header: 'Trans date', align: 'left', width: 1.1 },
        { header: 'Description', align: 'left', width: 4 },
        { header: 'Amount', align: 'right', width: 1.2 },
      ],
      rows: tx.map((t) => [formatDate(t.date, 'en-us-slash').slice(0, 5), t.text, ctx.num(t.amount)]),
    },
    {
      kind: 'paragraph',
      text: `Late payment warning: if we do not receive your minimum payment by ${ctx.d(due)}, you may have to pay a late fee of up to $40.00.`,
    },
  ];
  return { model: docModel(ctx, blocks), truth: truth(ctx, 'statement', { reference: null, amount: balance, due }) };
}

function accountStatementUs(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const invoices = Array.from({ length: 4 }, (_, i) => ({
    number: String(100_000 + rng.int(1000, 9999) + i),
    date: addDays(ctx.docDate, -rng.int(10, 60)),
    amount: rng.amount(80, 900),
  })).sort((a, b) => a.date.localeCompare(b.date));
  const paid = invoices[0]!.amount;
  const balance = round2(invoices.reduce((s, v) => s + v.amount, 0) - paid);
  const due = endOfMonth(addDays(ctx.docDate, 20));
  const blocks: Block[] = [
    window(ctx, [
      ['Customer account', `ATL-${rng.digits(5)}`],
      ['Statement date', ctx.d(ctx.docDate)],
      ['Terms', 'Net 30'],
    ]),
    { kind: 'heading', text: 'Statement of Account' },
    {
      kind: 'table',
      columns: [
        { header: 'Date', align: 'left', width: 1.2 },
        { header: 'Reference', align: 'left', width: 2.2 },
        { header: 'Charges', align: 'right', width: 1.2 },
        { header: 'Payments', align: 'right', width: 1.2 },
      ],
      rows: [
        ...invoices.map((v) => [ctx.d(v.date), `Invoice ${v.number}`, ctx.num(v.amount), '']),
        [ctx.d(addDays(invoices[0]!.date, 25)), `Payment - thank you (inv. ${invoices[0]!.number})`, '', ctx.num(paid)],
      ],
    },
    { kind: 'pairs', valueAlign: 'right', rows: [['Balance due', ctx.money(balance)]], boldRows: [0] },
    {
      kind: 'paragraph',
      text: `Please remit the balance due by ${ctx.d(due)}. Make checks payable to Atlas Office Supplies Inc.`,
    },
  ];
  return { model: docModel(ctx, blocks), truth: truth(ctx, 'statement', { reference: null, amount: balance, due }) };
}

function waterEn(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const account = refNumber(rng, '9########');
  const from = `${Number(ctx.docDate.slice(0, 4)) - 1}-10-01`;
  const to = `${ctx.docDate.slice(0, 4)}-09-30`;
  const water = rng.amount(180, 260);
  const sewer = rng.amount(220, 300);
  const paid = round2(Math.floor((water + sewer - rng.amount(30, 90)) / 10) * 10);
  const balance = round2(water + sewer - paid);
  const due = addDays(ctx.docDate, 21);
  const blocks: Block[] = [
    window(ctx, [
      ['Account number', account],
      ['Statement date', ctx.d(ctx.docDate)],
    ]),
    { kind: 'heading', text: 'Your annual water statement' },
    { kind: 'paragraph', text: greeting(ctx) },
    { kind: 'paragraph', text: `This statement covers the period ${ctx.d(from)} to ${ctx.d(to)}.` },
    {
      kind: 'pairs',
      valueAlign: 'right',
      rows: [
        ['Clean water charges', ctx.money(water)],
        ['Wastewater charges', ctx.money(sewer)],
        ['Payments received', ctx.money(-paid)],
        ['Balance to pay', ctx.money(balance)],
      ],
      boldRows: [3],
    },
    {
      kind: 'paragraph',
      text: `Please pay the balance of ${ctx.money(balance)} by ${ctx.d(due)}. Your new instalment plan is enclosed.`,
    },
    { kind: 'paragraph', text: 'Yours sincerely,\nBilling Team' },
  ];
  return { model: docModel(ctx, blocks), truth: truth(ctx, 'statement', { reference: null, amount: balance, due }) };
}
