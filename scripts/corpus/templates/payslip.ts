/** Payslips. Amount: the net pay paid out; no due date; the employee number is not treated as a reference. */
import { addDays, addMonths, endOfMonth, formatDate, monthName, round2 } from '../format.ts';
import type { Block, BuiltDocument } from '../model.ts';
import { docModel, truth, type Ctx } from './common.ts';

export function buildPayslip(ctx: Ctx): BuiltDocument {
  switch (ctx.s.key) {
    case 'kessler':
    case 'sonnenhof':
      return germanPayslip(ctx);
    case 'vogel':
      return minijob(ctx);
    case 'cascade':
      return usPaystub(ctx);
    default:
      return ukPayslip(ctx);
  }
}

/** The month a payslip settles: the current one late in the month, else the one before. */
const payPeriod = (docDate: string): string => (Number(docDate.slice(8, 10)) >= 20 ? docDate : addMonths(docDate, -1));

function germanPayslip(ctx: Ctx): BuiltDocument {
  const { rng, s, r } = ctx;
  const period = payPeriod(ctx.docDate);
  const month = `${monthName(period, 'de')} ${period.slice(0, 4)}`;
  const salary = s.key === 'kessler' ? rng.int(3400, 4800) : rng.int(2600, 3300);
  const extra = s.key === 'kessler' ? round2(rng.int(4, 12) * rng.amount(24, 31)) : round2(rng.int(2, 6) * 4.5 * 8);
  const vwlEmployer = s.key === 'kessler' ? 26.59 : 0;
  const gross = round2(salary + extra + vwlEmployer);
  const lst = round2(gross * rng.amount(0.11, 0.15));
  const kist = round2(lst * 0.09);
  const kv = round2(gross * 0.0875);
  const rv = round2(gross * 0.093);
  const av = round2(gross * 0.013);
  const pv = round2(gross * 0.018);
  const deductions = round2(lst + kist + kv + rv + av + pv);
  const net = round2(gross - deductions);
  const vwl = s.key === 'kessler' ? 40 : 0;
  const payout = round2(net - vwl);
  const pnr = String(rng.int(1000, 9999));
  const blocks: Block[] = [
    {
      kind: 'window',
      returnAddress: null,
      recipient: r.lines,
      infoPlacement: 'beside',
      info: [
        ['Personal-Nr.', pnr],
        ['Abrechnungsmonat', month],
        ['Datum', ctx.d(ctx.docDate)],
        ['Steuerklasse', String(rng.pick([1, 3, 4]))],
        ['Konfession', 'ev'],
        ['Krankenkasse', 'BKK Nordwest Gesundheit'],
        ['SV-Nummer', `${rng.digits(2)} ${rng.digits(6)} ${String.fromCharCode(65 + rng.int(0, 25))} ${rng.digits(3)}`],
      ],
    },
    { kind: 'heading', text: s.key === 'kessler' ? `Entgeltabrechnung ${month}` : `Verdienstabrechnung für ${month}` },
    {
      kind: 'table',
      columns: [
        { header: 'Lohnart', align: 'left', width: 0.9 },
        { header: 'Bezeichnung', align: 'left', width: 3.5 },
        { header: 'Menge', align: 'right', width: 0.9 },
        { header: 'Betrag', align: 'right', width: 1.3 },
      ],
      rows: [
        ['1000', 'Gehalt', '', ctx.num(salary)],
        ['1200', s.key === 'kessler' ? 'Überstunden 25 %' : 'Zuschlag Nacht/Sonntag', '', ctx.num(extra)],
        ...(vwlEmployer ? [['1510', 'VWL Arbeitgeberanteil', '', ctx.num(vwlEmployer)]] : []),
      ],
    },
    { kind: 'pairs', valueAlign: 'right', rows: [['Gesamtbrutto', ctx.money(gross)]], boldRows: [0] },
    {
      kind: 'table',
      columns: [
        { header: 'Steuer / Sozialversicherung', align: 'left', width: 4 },
        { header: 'Betrag', align: 'right', width: 1.3 },
      ],
      rows: [
        ['Lohnsteuer', ctx.num(lst)],
        ['Kirchensteuer', ctx.num(kist)],
        ['Solidaritätszuschlag', ctx.num(0)],
        ['Krankenversicherung', ctx.num(kv)],
        ['Rentenversicherung', ctx.num(rv)],
        ['Arbeitslosenversicherung', ctx.num(av)],
        ['Pflegeversicherung', ctx.num(pv)],
      ],
    },
    {
      kind: 'pairs',
      valueAlign: 'right',
      rows: [
        ['Summe gesetzliche Abzüge', ctx.money(deductions)],
        ['Nettoverdienst', ctx.money(net)],
        ...(vwl ? [['Abzug VWL-Sparvertrag', ctx.money(-vwl)] as [string, string]] : []),
        ['Auszahlungsbetrag', ctx.money(payout)],
      ],
      boldRows: [vwl ? 3 : 2],
    },
    {
      kind: 'paragraph',
      text: `Überweisung auf IBAN DE${rng.digits(2)} 5206 1303 ${rng.digits(4)} ${rng.digits(4)} ${rng.digits(2)} am ${formatDate(endOfMonth(period), 'de-numeric')}`,
    },
    {
      kind: 'paragraph',
      text: `Jahressummen: Steuerbrutto ${ctx.num(round2(gross * Number(period.slice(5, 7))))} · Lohnsteuer ${ctx.num(round2(lst * Number(period.slice(5, 7))))}`,
      size: 8,
    },
  ];
  return { model: docModel(ctx, blocks), truth: truth(ctx, 'payslip', { reference: null, amount: payout, due: null }) };
}

function minijob(ctx: Ctx): BuiltDocument {
  const { rng, r } = ctx;
  const period = payPeriod(ctx.docDate);
  const month = `${monthName(period, 'de')} ${period.slice(0, 4)}`;
  const hours = rng.int(38, 41);
  const rate = 13.5;
  const gross = round2(hours * rate);
  const rv = round2(gross * 0.036);
  const net = round2(gross - rv);
  const blocks: Block[] = [
    {
      kind: 'window',
      returnAddress: null,
      recipient: r.lines,
      infoPlacement: 'beside',
      info: [
        ['Pers.-Nr.', String(rng.int(10, 99))],
        ['Abrechnung', month],
        ['Datum', ctx.d(ctx.docDate)],
        ['Beschäftigung', 'Minijob (GfB)'],
      ],
    },
    { kind: 'heading', text: 'Abrechnung der Brutto/Netto-Bezüge' },
    {
      kind: 'table',
      columns: [
        { header: 'Bezeichnung', align: 'left', width: 3 },
        { header: 'Stunden', align: 'right', width: 1 },
        { header: 'Satz', align: 'right', width: 1 },
        { header: 'Betrag', align: 'right', width: 1.3 },
      ],
      rows: [['Stundenlohn Verkauf', String(hours), ctx.num(rate), ctx.num(gross)]],
    },
    {
      kind: 'pairs',
      valueAlign: 'right',
      rows: [
        ['Gesamtbrutto', ctx.money(gross)],
        ['Pauschsteuer 2 % (trägt Arbeitgeber)', ctx.money(0)],
        ['Eigenanteil Rentenversicherung 3,6 %', ctx.money(-rv)],
        ['Netto / Auszahlung', ctx.money(net)],
      ],
      boldRows: [3],
    },
    { kind: 'paragraph', text: 'Die Auszahlung erfolgt zum Monatsende auf das bekannte Konto.' },
  ];
  return { model: docModel(ctx, blocks), truth: truth(ctx, 'payslip', { reference: null, amount: net, due: null }) };
}

function ukPayslip(ctx: Ctx): BuiltDocument {
  const { rng, s, r } = ctx;
  const hotel = s.key === 'harbourlights';
  const basic = hotel ? round2(rng.int(140, 165) * 12.6) : round2((rng.int(38, 52) * 1000) / 12);
  const overtime = hotel ? round2(rng.int(4, 10) * 18.9) : 0;
  const gross = round2(basic + overtime);
  const tax = round2(Math.max(0, gross - 1047.5) * 0.2);
  const ni = round2(Math.max(0, gross - 1048) * 0.08);
  const pension = round2(gross * 0.05);
  const loan = hotel ? 0 : round2(Math.max(0, gross - 2274) * 0.09);
  const net = round2(gross - tax - ni - pension - loan);
  const periodNo = Number(ctx.docDate.slice(5, 7)) - 3;
  const blocks: Block[] = [
    {
      kind: 'window',
      returnAddress: null,
      recipient: r.lines,
      infoPlacement: 'beside',
      info: [
        ['Employee No.', String(rng.int(100, 999))],
        ['NI number', `${'QR'} ${rng.digits(2)} ${rng.digits(2)} ${rng.digits(2)} C`],
        ['Tax code', '1257L'],
        ['Pay date', ctx.d(ctx.docDate)],
        ['Tax period', `Month ${periodNo}`],
        ['Pay method', 'BACS'],
      ],
    },
    { kind: 'heading', text: 'Payslip' },
    {
      kind: 'table',
      columns: [
        { header: 'Payments', align: 'left', width: 3 },
        { header: 'Units', align: 'right', width: 0.8 },
        { header: 'Amount', align: 'right', width: 1.2 },
        { header: 'Deductions', align: 'left', width: 2.4 },
        { header: 'Amount', align: 'right', width: 1.2 },
      ],
      rows: [
        [
          hotel ? 'Basic pay (hourly)' : 'Basic salary',
          hotel ? String(Math.round(basic / 12.6)) : '',
          ctx.num(basic),
          'PAYE tax',
          ctx.num(tax),
        ],
        [
          overtime ? 'Overtime x1.5' : '',
          overtime ? String(Math.round(overtime / 18.9)) : '',
          overtime ? ctx.num(overtime) : '',
          'National Insurance',
          ctx.num(ni),
        ],
        ['', '', '', 'Pension (5%)', ctx.num(pension)],
        ...(loan ? [['', '', '', 'Student loan (Plan 2)', ctx.num(loan)]] : []),
      ],
    },
    {
      kind: 'pairs',
      valueAlign: 'right',
      rows: [
        ['Total payments', ctx.money(gross)],
        ['Total deductions', ctx.money(round2(gross - net))],
        ['Net pay', ctx.money(net)],
      ],
      boldRows: [2],
    },
    {
      kind: 'paragraph',
      text: `Year to date: taxable pay ${ctx.money(round2(gross * periodNo))} · tax paid ${ctx.money(round2(tax * periodNo))} · employee NI ${ctx.money(round2(ni * periodNo))}`,
      size: 8,
    },
  ];
  return { model: docModel(ctx, blocks), truth: truth(ctx, 'payslip', { reference: null, amount: net, due: null }) };
}

function usPaystub(ctx: Ctx): BuiltDocument {
  const { rng, r } = ctx;
  const hours = 80;
  const rate = rng.amount(24, 31);
  const gross = round2(hours * rate);
  const fed = round2(gross * 0.1);
  const ss = round2(gross * 0.062);
  const med = round2(gross * 0.0145);
  const state = round2(gross * 0.0675);
  const k401 = round2(gross * 0.04);
  const net = round2(gross - fed - ss - med - state - k401);
  const start = ctx.docDate;
  const us = (iso: string): string => formatDate(iso, 'en-us-slash');
  const ytd = (v: number): string => ctx.num(round2(v * rng.int(18, 22)));
  const blocks: Block[] = [
    {
      kind: 'window',
      returnAddress: null,
      recipient: r.lines,
      infoPlacement: 'beside',
      info: [
        ['Employee ID', `E${rng.digits(5)}`],
        ['Pay date', ctx.d(ctx.docDate)],
        ['Pay period', `${us(addDays(start, -15))} - ${us(addDays(start, -2))}`],
        ['Advice #', rng.digits(7)],
      ],
    },
    { kind: 'heading', text: 'Earnings Statement' },
    {
      kind: 'table',
      columns: [
        { header: 'Earnings', align: 'left', width: 2.6 },
        { header: 'Rate', align: 'right', width: 1 },
        { header: 'Hours', align: 'right', width: 0.9 },
        { header: 'This period', align: 'right', width: 1.3 },
        { header: 'Year to date', align: 'right', width: 1.4 },
      ],
      rows: [['Regular', ctx.num(rate), String(hours), ctx.num(gross), ytd(gross)]],
    },
    {
      kind: 'table',
      columns: [
        { header: 'Deductions', align: 'left', width: 4.5 },
        { header: 'This period', align: 'right', width: 1.3 },
        { header: 'Year to date', align: 'right', width: 1.4 },
      ],
      rows: [
        ['Federal income tax', ctx.num(fed), ytd(fed)],
        ['Social Security', ctx.num(ss), ytd(ss)],
        ['Medicare', ctx.num(med), ytd(med)],
        ['OR state income tax', ctx.num(state), ytd(state)],
        ['401(k) 4%', ctx.num(k401), ytd(k401)],
      ],
    },
    {
      kind: 'pairs',
      valueAlign: 'right',
      rows: [
        ['Gross pay', ctx.money(gross)],
        ['Net pay', ctx.money(net)],
      ],
      boldRows: [1],
    },
    {
      kind: 'paragraph',
      text: `Direct deposit to checking account xxxx${rng.digits(4)}: ${ctx.money(net)}. This is not a check.`,
    },
  ];
  return { model: docModel(ctx, blocks), truth: truth(ctx, 'payslip', { reference: null, amount: net, due: null }) };
}
