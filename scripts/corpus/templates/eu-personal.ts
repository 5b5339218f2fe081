/**
 * Personal paperwork in Dutch, Italian, French and Spanish: payslips (amount: the net pay; no reference), a tax
 * notice (reference: the tax number; amount and due date: what is to be paid by when) and letters (reference: the
 * file number they quote; no amount).
 */
import { addDays, round2 } from '../format.ts';
import { date, money, number } from '../languages.ts';
import type { Block, BuiltDocument } from '../model.ts';
import type { EuLang } from '../parties-eu.ts';
import { refNumber, truth, type Ctx } from './common.ts';
import { euModel } from './eu-billing.ts';

const MONTHS: Record<EuLang, Intl.DateTimeFormat> = {
  fr: new Intl.DateTimeFormat('fr-FR', { month: 'long', year: 'numeric', timeZone: 'UTC' }),
  nl: new Intl.DateTimeFormat('nl-NL', { month: 'long', year: 'numeric', timeZone: 'UTC' }),
  es: new Intl.DateTimeFormat('es-ES', { month: 'long', year: 'numeric', timeZone: 'UTC' }),
  it: new Intl.DateTimeFormat('it-IT', { month: 'long', year: 'numeric', timeZone: 'UTC' }),
};

/** The month a payslip is for: the one before its issue date. */
function payPeriod(lang: EuLang, issued: string): string {
  const d = new Date(`${issued.slice(0, 8)}01T12:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() - 1);
  return MONTHS[lang].format(d);
}

interface PayslipWords {
  heading: string;
  period: string;
  employee: string;
  role: string;
  payDay: string;
  gross: string;
  deductions: Array<[string, number]>;
  net: string;
  columns: [string, string, string];
}

const PAYSLIP: Partial<Record<EuLang, PayslipWords>> = {
  nl: {
    heading: 'Salarisstrook',
    period: 'Periode',
    employee: 'Werknemer',
    role: 'Functie: hovenier',
    payDay: 'Datum uitbetaling',
    gross: 'Brutoloon',
    deductions: [
      ['Loonheffing', 0.21],
      ['Pensioenpremie werknemer', 0.055],
      ['Premie WW', 0.0],
    ],
    net: 'Netto uit te betalen',
    columns: ['Omschrijving', 'Inhouding', 'Uitbetaling'],
  },
  it: {
    heading: 'Cedolino paga',
    period: 'Mese di retribuzione',
    employee: 'Dipendente',
    role: 'Qualifica: operaio 3° livello',
    payDay: 'Data pagamento',
    gross: 'Retribuzione lorda',
    deductions: [
      ['Contributi INPS', 0.0919],
      ['IRPEF netta', 0.172],
      ['Addizionale regionale', 0.0123],
    ],
    net: 'Netto in busta',
    columns: ['Voce', 'Trattenute', 'Competenze'],
  },
};

export function buildEuPayslip(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const lang = ctx.lang as EuLang;
  const w = PAYSLIP[lang];
  if (!w) throw new Error(`${ctx.s.key}: no payslip template in ${lang}`);
  const gross = rng.int(2300, 3600) + rng.pick([0, 0.5, 0.25]);
  const rows: string[][] = [[w.gross, '', number(lang, gross)]];
  let net = gross;
  for (const [label, share] of w.deductions) {
    const cut = round2(gross * share);
    if (cut === 0) continue;
    rows.push([label, number(lang, cut), '']);
    net = round2(net - cut);
  }
  rows.push([w.net, '', number(lang, net)]);
  const blocks: Block[] = [
    {
      kind: 'window',
      returnAddress: null,
      recipient: ctx.r.lines,
      info: [
        [w.period, payPeriod(lang, ctx.docDate)],
        [w.employee, refNumber(rng, '####')],
        [w.payDay, date(lang, ctx.docDate, false)],
      ],
      infoPlacement: 'beside',
    },
    { kind: 'heading', text: w.heading },
    { kind: 'paragraph', text: w.role },
    {
      kind: 'table',
      columns: [
        { header: w.columns[0], align: 'left', width: 4 },
        { header: w.columns[1], align: 'right', width: 1.4 },
        { header: w.columns[2], align: 'right', width: 1.4 },
      ],
      rows,
      boldRows: [rows.length - 1],
    },
  ];
  return {
    model: euModel(ctx, blocks),
    truth: truth(ctx, 'payslip', { reference: null, amount: net, due: null }),
  };
}

/** A French income-tax notice: the balance left to pay after the monthly withholding. */
export function buildEuTaxNotice(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const lang = ctx.lang as EuLang;
  if (lang !== 'fr') throw new Error(`${ctx.s.key}: no tax notice template in ${lang}`);
  const taxNo = `${rng.int(1, 3)} ${rng.digits(2)} ${rng.digits(3)} ${rng.digits(3)} ${rng.digits(3)}`;
  const tax = rng.int(1800, 4200);
  const withheld = rng.int(1200, tax - 150);
  const balance = tax - withheld;
  const due = addDays(ctx.docDate, rng.pick([30, 45]));
  const blocks: Block[] = [
    {
      kind: 'window',
      returnAddress: null,
      recipient: ctx.r.lines,
      info: [
        ['Numéro fiscal', taxNo],
        ['Date d’établissement', date(lang, ctx.docDate, false)],
      ],
      infoPlacement: 'beside',
    },
    { kind: 'heading', text: 'Avis d’impôt sur les revenus de 2025' },
    {
      kind: 'pairs',
      valueAlign: 'right',
      rows: [
        ['Impôt sur le revenu net', money(lang, tax, ctx.currency)],
        ['Prélèvement à la source déjà versé', money(lang, withheld, ctx.currency)],
        ['Solde à payer', money(lang, balance, ctx.currency)],
      ],
      boldRows: [2],
    },
    {
      kind: 'paragraph',
      text: `Le solde sera prélevé sur votre compte ou devra être réglé au plus tard le ${date(lang, due, true)}. Pour toute question, rendez-vous dans votre espace particulier.`,
    },
  ];
  return {
    model: euModel(ctx, blocks),
    truth: truth(ctx, 'notice', { reference: taxNo, amount: balance, due }),
  };
}

interface LetterWords {
  ref: string;
  dated: string;
  subject: string;
  body: string[];
  closing: string;
}

const LETTER: Partial<Record<EuLang, LetterWords>> = {
  nl: {
    ref: 'Ons kenmerk',
    dated: 'Datum',
    subject: 'Onderhoud aan de galerijen van uw complex',
    body: [
      'Volgend voorjaar vernieuwen wij de galerijvloeren en de balkonhekken van uw woongebouw. De aannemer neemt vooraf contact met u op om een afspraak te maken.',
      'Tijdens de werkzaamheden blijft uw woning bereikbaar. Wij vragen u fietsen en planten tijdelijk van de galerij te halen.',
      'Heeft u vragen? Bel dan met het huurdersteam; vermeld daarbij ons kenmerk.',
    ],
    closing: 'Met vriendelijke groet,\nTeam Projecten',
  },
  es: {
    ref: 'Nuestra ref.',
    dated: 'Fecha',
    subject: 'Cambio de horario de la piscina cubierta',
    body: [
      'Le informamos de que, por obras de mejora en la climatización, la piscina cubierta permanecerá cerrada durante dos semanas a partir del próximo lunes.',
      'Durante ese periodo podrá utilizar sin coste adicional las instalaciones de la sala fitness en horario ampliado.',
      'Lamentamos las molestias y agradecemos su comprensión.',
    ],
    closing: 'Un cordial saludo,\nLa Dirección',
  },
};

export function buildEuLetter(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const lang = ctx.lang as EuLang;
  const w = LETTER[lang];
  if (!w) throw new Error(`${ctx.s.key}: no letter template in ${lang}`);
  const ref = refNumber(rng, rng.pick(['WS/####/@@', 'DIR-###-26']));
  const blocks: Block[] = [
    {
      kind: 'window',
      returnAddress: null,
      recipient: ctx.r.lines,
      info: [
        [w.ref, ref],
        [w.dated, date(lang, ctx.docDate, true)],
      ],
      infoPlacement: 'beside',
    },
    { kind: 'heading', text: w.subject },
    { kind: 'paragraph', text: ctx.r.salutation },
    ...w.body.map((text): Block => ({ kind: 'paragraph', text })),
    { kind: 'paragraph', text: w.closing },
  ];
  return { model: euModel(ctx, blocks), truth: truth(ctx, 'letter', { reference: ref, amount: null, due: null }) };
}
