/** Insurance policies. Amount: the premium as the schedule totals it; due date: the end of the period of cover. */
import { addDays, addMonths, round2 } from '../format.ts';
import type { Block, BuiltDocument } from '../model.ts';
import { docModel, greeting, refNumber, truth, window, type Ctx } from './common.ts';

const nextFirst = (iso: string): string => addMonths(`${iso.slice(0, 8)}01`, 1);

export function buildPolicy(ctx: Ctx): BuiltDocument {
  switch (ctx.s.key) {
    case 'nordlicht':
      return ctx.opts.variant % 2 === 0 ? householdDe(ctx) : motorDe(ctx);
    case 'justitia':
      return legalDe(ctx);
    case 'harbourside':
      return ctx.opts.variant % 2 === 0 ? homeEn(ctx) : motorEn(ctx);
    default:
      return healthUs(ctx);
  }
}

function householdDe(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const number = refNumber(rng, 'HR-####-#######');
  const begin = nextFirst(ctx.docDate);
  const end = addDays(addMonths(begin, 12), -1);
  const net = rng.amount(95, 180);
  const tax = round2(net * 0.19);
  const gross = round2(net + tax);
  const blocks: Block[] = [
    window(ctx, [
      ['Versicherungsschein-Nr.', number],
      ['Vermittler-Nr.', refNumber(rng, '0###/###')],
      ['Datum', ctx.d(ctx.docDate)],
    ]),
    { kind: 'heading', text: 'Versicherungsschein Hausratversicherung' },
    { kind: 'paragraph', text: greeting(ctx) },
    {
      kind: 'paragraph',
      text: 'wir freuen uns, Sie als Kundin bzw. Kunden begrüßen zu dürfen. Mit diesem Versicherungsschein dokumentieren wir Ihren Versicherungsschutz.',
    },
    {
      kind: 'pairs',
      rows: [
        ['Versicherungsort', `${ctx.r.street}, ${ctx.r.postcode} ${ctx.r.city}`],
        ['Wohnfläche', `${rng.int(60, 120)} m²`],
        ['Versicherungssumme', ctx.money(rng.pick([52000, 65000, 78000]))],
        ['Selbstbeteiligung', ctx.money(150)],
        ['Versicherungsbeginn', `${ctx.d(begin)}, 0:00 Uhr`],
        ['Ablauf', `${ctx.d(end)}, 24:00 Uhr`],
        ['Zahlungsweise', 'jährlich'],
      ],
    },
    {
      kind: 'totals',
      rows: [
        { label: 'Jahresbeitrag netto', value: ctx.money(net) },
        { label: 'Versicherungsteuer 19 %', value: ctx.money(tax) },
        { label: 'Jahresbeitrag', value: ctx.money(gross), bold: true },
      ],
    },
    {
      kind: 'paragraph',
      text: `Der Erstbeitrag wird am ${ctx.d(addDays(begin, 14))} von Ihrem Konto abgebucht. Der Vertrag verlängert sich um jeweils ein Jahr, wenn er nicht drei Monate vor Ablauf gekündigt wird.`,
    },
    {
      kind: 'paragraph',
      text: 'Es gelten die Allgemeinen Hausrat-Versicherungsbedingungen (VHB 2022) sowie die beigefügten Besonderen Bedingungen.',
    },
    { kind: 'paragraph', text: 'Mit freundlichen Grüßen\nNordlicht Versicherung AG' },
  ];
  return { model: docModel(ctx, blocks), truth: truth(ctx, 'policy', { reference: number, amount: gross, due: end }) };
}

function motorDe(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const number = refNumber(rng, 'KF-########');
  const year = Number(ctx.docDate.slice(0, 4)) + 1;
  const begin = `${year}-01-01`;
  const end = `${year}-12-31`;
  const liability = rng.amount(240, 420);
  const partial = rng.amount(70, 140);
  const total = round2(liability + partial);
  const blocks: Block[] = [
    window(ctx, [
      ['Versicherungsschein-Nr.', number],
      ['Kennzeichen', `LIN-${refNumber(rng, '@@')} ${rng.int(100, 999)}`],
      ['Datum', ctx.d(ctx.docDate)],
    ]),
    { kind: 'heading', text: 'Versicherungsschein Kraftfahrtversicherung' },
    { kind: 'paragraph', text: 'Nachtrag zur Beitragsanpassung zum Jahreswechsel' },
    {
      kind: 'pairs',
      rows: [
        ['Fahrzeug', 'VW Golf 1.5 TSI, HSN/TSN 0603/BVY'],
        ['Erstzulassung', '03/2021'],
        ['Versicherungszeitraum', `${ctx.d(begin)} bis ${ctx.d(end)}`],
        ['Schadenfreiheitsklasse', `SF ${rng.int(6, 18)} (Haftpflicht), SF ${rng.int(4, 12)} (Kasko)`],
        ['Regionalklasse', 'Haftpflicht 5, Teilkasko 4'],
      ],
    },
    {
      kind: 'table',
      columns: [
        { header: 'Sparte', align: 'left', width: 4 },
        { header: 'Selbstbeteiligung', align: 'right', width: 1.6 },
        { header: 'Jahresbeitrag', align: 'right', width: 1.6 },
      ],
      rows: [
        ['Kfz-Haftpflicht (100 Mio. € pauschal)', '–', ctx.money(liability)],
        ['Teilkasko', ctx.money(150), ctx.money(partial)],
      ],
    },
    {
      kind: 'totals',
      rows: [{ label: 'Gesamtbeitrag jährlich inkl. 19 % VersSt.', value: ctx.money(total), bold: true }],
    },
    { kind: 'paragraph', text: `Der Beitrag ist am ${ctx.d(begin)} fällig und wird per Lastschrift eingezogen.` },
  ];
  return { model: docModel(ctx, blocks), truth: truth(ctx, 'policy', { reference: number, amount: total, due: end }) };
}

function legalDe(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const number = refNumber(rng, 'RS-####-####');
  const begin = nextFirst(ctx.docDate);
  const end = addDays(addMonths(begin, 36), -1);
  const monthly = rng.amount(19, 32);
  const blocks: Block[] = [
    window(ctx, [
      ['Versicherungsnummer', number],
      ['Kundennummer', refNumber(rng, 'K#######')],
      ['Datum', ctx.d(ctx.docDate)],
    ]),
    { kind: 'heading', text: 'Ihr Versicherungsschein – Privat-, Berufs- und Verkehrsrechtsschutz' },
    { kind: 'paragraph', text: greeting(ctx) },
    {
      kind: 'paragraph',
      text: 'vielen Dank für Ihr Vertrauen. Nachfolgend finden Sie die Daten Ihres Rechtsschutzvertrages.',
    },
    {
      kind: 'pairs',
      rows: [
        ['Versicherte Personen', 'Versicherungsnehmer und Lebenspartner'],
        ['Selbstbeteiligung', ctx.money(250)],
        ['Vertragsbeginn', ctx.d(begin)],
        ['Vertragslaufzeit', '3 Jahre'],
        ['Vertragsablauf', ctx.d(end)],
        ['Wartezeit', '3 Monate (außer Verkehrsrechtsschutz)'],
        ['Monatsbeitrag inkl. Versicherungsteuer', ctx.money(monthly)],
      ],
      boldRows: [6],
    },
    {
      kind: 'paragraph',
      text: `Der Vertrag verlängert sich nach Ablauf um jeweils ein Jahr, sofern nicht spätestens drei Monate vor Ablauf gekündigt wird. Der Beitrag für ein Jahr beträgt ${ctx.money(round2(monthly * 12))}.`,
    },
    { kind: 'paragraph', text: 'Mit freundlichen Grüßen\nIhre Justitia Rechtsschutz-Versicherung' },
  ];
  return {
    model: docModel(ctx, blocks),
    truth: truth(ctx, 'policy', { reference: number, amount: monthly, due: end }),
  };
}

function homeEn(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const number = refNumber(rng, 'HH-#######');
  const begin = addDays(ctx.docDate, rng.int(7, 20));
  const end = addDays(addMonths(begin, 12), -1);
  const net = rng.amount(260, 420);
  const ipt = round2(net * 0.12);
  const total = round2(net + ipt);
  const blocks: Block[] = [
    window(ctx, [
      ['Policy number', number],
      ['Date of issue', ctx.d(ctx.docDate)],
      ['Customer ref', refNumber(rng, 'C######')],
    ]),
    { kind: 'heading', text: 'Home Insurance – Policy Schedule' },
    { kind: 'paragraph', text: greeting(ctx) },
    {
      kind: 'paragraph',
      text: 'Thank you for choosing Harbourside. Please check this schedule carefully and tell us if anything is incorrect.',
    },
    {
      kind: 'pairs',
      rows: [
        ['Insured address', ctx.r.lines.slice(1).join(', ')],
        ['Period of insurance', `${ctx.d(begin)} to ${ctx.d(end)} (both dates inclusive)`],
        ['Buildings sum insured', ctx.money(rng.pick([325000, 350000, 410000]))],
        ['Contents sum insured', ctx.money(rng.pick([40000, 50000, 60000]))],
        ['Voluntary excess', ctx.money(250)],
      ],
    },
    {
      kind: 'totals',
      rows: [
        { label: 'Premium', value: ctx.money(net) },
        { label: 'Insurance Premium Tax (12%)', value: ctx.money(ipt) },
        { label: 'Total annual premium', value: ctx.money(total), bold: true },
      ],
    },
    {
      kind: 'paragraph',
      text: `You have chosen to pay monthly: 12 instalments of ${ctx.money(round2(total / 12))}, the first collected on ${ctx.d(addDays(begin, 10))}.`,
    },
    { kind: 'paragraph', text: 'Kind regards,\nHarbourside Insurance' },
  ];
  return { model: docModel(ctx, blocks), truth: truth(ctx, 'policy', { reference: number, amount: total, due: end }) };
}

function motorEn(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const number = refNumber(rng, 'HM-#######');
  const begin = addDays(ctx.docDate, rng.int(5, 15));
  const end = addDays(addMonths(begin, 12), -1);
  const total = rng.amount(480, 760);
  const blocks: Block[] = [
    window(ctx, [
      ['Policy number', number],
      ['Date', ctx.d(ctx.docDate)],
      ['Vehicle', `${refNumber(rng, '@@')}${rng.int(15, 24)} ${refNumber(rng, '@@@')}`],
    ]),
    { kind: 'heading', text: 'Motor Insurance Schedule' },
    {
      kind: 'pairs',
      rows: [
        ['Cover', 'Comprehensive'],
        ['Vehicle', 'Ford Focus 1.0 EcoBoost Titanium, 2021'],
        ['Drivers', `${ctx.r.name} (policyholder)`],
        ['Period of cover', `${ctx.d(begin)} to ${ctx.d(end)}`],
        ['Compulsory excess', ctx.money(250)],
        ['No claims discount', `${rng.int(3, 9)} years (protected)`],
        ['Total premium (incl. IPT)', ctx.money(total)],
      ],
      boldRows: [6],
    },
    {
      kind: 'paragraph',
      text: 'Your certificate of motor insurance is enclosed. Please keep it with your policy documents.',
    },
  ];
  return { model: docModel(ctx, blocks), truth: truth(ctx, 'policy', { reference: number, amount: total, due: end }) };
}

function healthUs(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const number = refNumber(rng, 'EHP-#########');
  const year = Number(ctx.docDate.slice(0, 4)) + 1;
  const begin = `${year}-01-01`;
  const end = `${year}-12-31`;
  const premium = rng.amount(380, 520);
  const blocks: Block[] = [
    window(ctx, [
      ['Policy number', number],
      ['Member ID', refNumber(rng, 'EVG#########')],
      ['Issue date', ctx.d(ctx.docDate)],
    ]),
    { kind: 'heading', text: 'Policy Declarations – Individual Health Plan' },
    {
      kind: 'pairs',
      rows: [
        ['Plan', 'Evergreen Silver PPO 2500'],
        ['Coverage period', `${ctx.d(begin)} – ${ctx.d(end)}`],
        ['Annual deductible', ctx.money(2500)],
        ['Out-of-pocket maximum', ctx.money(7000)],
        ['Primary care visit copay', ctx.money(35)],
        ['Monthly premium', ctx.money(premium)],
      ],
      boldRows: [5],
    },
    {
      kind: 'paragraph',
      text: `Your first premium payment is due by ${ctx.d(addDays(begin, -10))}. Coverage will not begin until it is received.`,
    },
    {
      kind: 'paragraph',
      text: 'This page is a summary only. The policy certificate describes your benefits, exclusions and limitations.',
    },
  ];
  return {
    model: docModel(ctx, blocks),
    truth: truth(ctx, 'policy', { reference: number, amount: premium, due: end }),
  };
}
