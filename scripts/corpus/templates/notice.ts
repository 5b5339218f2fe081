/**
 * Notices: tax assessment, fine, price change, payment reminder, penalty charge, supply interruption.
 * Amount and due date only when the notice demands a payment; reference: the case, tax or account number it concerns.
 */
import { addDays, addMonths, round2 } from '../format.ts';
import type { Block, BuiltDocument } from '../model.ts';
import { docModel, greeting, refNumber, truth, window, type Ctx } from './common.ts';

export function buildNotice(ctx: Ctx): BuiltDocument {
  switch (ctx.s.key) {
    case 'finanzamt':
      return taxDe(ctx);
    case 'bussgeld':
      return fineDe(ctx);
    case 'stadtwerke':
      return priceChangeDe(ctx);
    case 'brandt':
      return reminderDe(ctx);
    case 'ashford':
      return pcnEn(ctx);
    case 'brightwater':
      return interruptionEn(ctx);
    case 'skylink':
      return reminderEn(ctx);
    default:
      return priceChangeEn(ctx);
  }
}

function taxDe(ctx: Ctx): BuiltDocument {
  const { rng, s } = ctx;
  const taxNo = `${rng.int(20, 29)}/${rng.digits(3)}/${rng.digits(5)}`;
  const year = Number(ctx.docDate.slice(0, 4)) - 1;
  const wages = rng.int(38_000, 62_000);
  const werbung = rng.int(1_300, 3_400);
  const sonder = rng.int(2_800, 6_500);
  const zve = wages - werbung - sonder;
  const est = Math.round(zve * 0.19);
  const soli = 0;
  const kist = Math.round(est * 0.09);
  const paidEst = est - rng.int(280, 900);
  const paidKist = kist - rng.int(20, 80);
  const payEst = est - paidEst;
  const payKist = kist - paidKist;
  const total = round2(payEst + payKist);
  const due = addDays(ctx.docDate, 31);
  const blocks: Block[] = [
    window(ctx, [
      ['Steuernummer', taxNo],
      ['Datum', ctx.d(ctx.docDate)],
      ['Telefon', s.phone],
      ['Zimmer', String(rng.int(101, 340))],
    ]),
    { kind: 'heading', text: `Bescheid für ${year} über Einkommensteuer und Kirchensteuer` },
    { kind: 'paragraph', text: 'Festsetzung', bold: true },
    {
      kind: 'table',
      columns: [
        { header: '', align: 'left', width: 3 },
        { header: 'Einkommensteuer', align: 'right', width: 1.6 },
        { header: 'Solidaritätszuschlag', align: 'right', width: 1.6 },
        { header: 'Kirchensteuer ev', align: 'right', width: 1.6 },
      ],
      rows: [
        ['festgesetzt werden', ctx.num(est), ctx.num(soli), ctx.num(kist)],
        ['abzüglich Steuerabzug vom Lohn', ctx.num(paidEst), ctx.num(0), ctx.num(paidKist)],
        ['verbleibende Beträge', ctx.num(payEst), ctx.num(0), ctx.num(payKist)],
      ],
    },
    { kind: 'paragraph', text: 'Abrechnung', bold: true },
    {
      kind: 'paragraph',
      text: `Bitte zahlen Sie spätestens am ${ctx.d(due)} den Betrag von ${ctx.money(total)} unter Angabe der Steuernummer auf das unten angegebene Konto der Finanzkasse.`,
    },
    {
      kind: 'pairs',
      valueAlign: 'right',
      rows: [
        ['Einkommensteuer', ctx.money(payEst)],
        ['Kirchensteuer ev', ctx.money(payKist)],
        ['Gesamtbetrag', ctx.money(total)],
      ],
      boldRows: [2],
    },
    {
      kind: 'paragraph',
      text: `Wenn ein Betrag nicht rechtzeitig entrichtet wird, sind Säumniszuschläge zu zahlen. Die Zahlung gilt als rechtzeitig, wenn der Betrag spätestens am Fälligkeitstag auf dem Konto der Finanzkasse gutgeschrieben ist.`,
    },
    { kind: 'paragraph', text: 'Berechnung der Einkommensteuer', bold: true },
    {
      kind: 'table',
      columns: [
        { header: '', align: 'left', width: 5 },
        { header: 'Euro', align: 'right', width: 1.4 },
      ],
      rows: [
        ['Einkünfte aus nichtselbständiger Arbeit: Bruttoarbeitslohn', ctx.num(wages)],
        ['abzüglich Werbungskosten', ctx.num(werbung)],
        ['Summe der Einkünfte', ctx.num(wages - werbung)],
        ['abzüglich Sonderausgaben (Vorsorgeaufwendungen u. a.)', ctx.num(sonder)],
        ['zu versteuerndes Einkommen', ctx.num(zve)],
        ['tarifliche Einkommensteuer (Grundtabelle)', ctx.num(est)],
      ],
    },
    { kind: 'paragraph', text: 'Erläuterungen', bold: true },
    {
      kind: 'paragraph',
      text: 'Die als Werbungskosten geltend gemachten Aufwendungen für das häusliche Arbeitszimmer wurden in Höhe der Tagespauschale berücksichtigt. Bei der Festsetzung wurde von Ihrer Steuererklärung abgewichen; die Abweichungen sind in der Berechnung ersichtlich.',
    },
    {
      kind: 'paragraph',
      text: 'Die Festsetzung der Einkommensteuer ist gemäß § 165 Abs. 1 Satz 2 AO vorläufig hinsichtlich der beschränkten Abziehbarkeit von Vorsorgeaufwendungen.',
    },
    { kind: 'paragraph', text: 'Rechtsbehelfsbelehrung', bold: true },
    {
      kind: 'paragraph',
      text: `Die Festsetzungen können mit dem Einspruch angefochten werden. Der Einspruch ist beim ${s.name}, ${s.street}, ${s.postcode} ${s.city}, schriftlich einzureichen, diesem elektronisch zu übermitteln oder dort zur Niederschrift zu erklären. Die Frist für die Einlegung des Einspruchs beträgt einen Monat. Sie beginnt mit Ablauf des Tages, an dem Ihnen dieser Bescheid bekannt gegeben worden ist. Die Bekanntgabe gilt grundsätzlich am vierten Tag nach Aufgabe zur Post als bewirkt.`,
    },
    { kind: 'paragraph', text: 'Dieser Bescheid wurde maschinell erstellt und ist ohne Unterschrift gültig.' },
  ];
  return {
    model: docModel(ctx, blocks, { pageNumbers: true }),
    truth: truth(ctx, 'notice', { reference: taxNo, amount: total, due }),
  };
}

function fineDe(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const file = `${rng.int(40, 49)}.${rng.digits(6)}.${rng.int(1, 9)}`;
  const offence = addDays(ctx.docDate, -rng.int(15, 40));
  const fine = rng.pick([30, 50, 60, 70]);
  const fees = 25;
  const costs = 3.5;
  const total = round2(fine + fees + costs);
  const due = addDays(ctx.docDate, 28);
  const speed = rng.int(16, 20);
  const blocks: Block[] = [
    window(ctx, [
      ['Aktenzeichen', file],
      ['Datum', ctx.d(ctx.docDate)],
      ['Sachbearbeitung', 'Frau Krüger'],
      ['Sprechzeiten', 'Mo–Fr 8–12 Uhr'],
    ]),
    { kind: 'heading', text: 'Bußgeldbescheid' },
    { kind: 'paragraph', text: greeting(ctx) },
    {
      kind: 'paragraph',
      text: `Ihnen wird vorgeworfen, am ${ctx.d(offence)} um ${rng.int(7, 19)}:${String(rng.int(10, 59))} Uhr in Lindenau, Kasseler Landstraße, stadteinwärts, als Führer des PKW LIN-${refNumber(rng, '@@')} ${rng.int(100, 999)} folgende Ordnungswidrigkeit begangen zu haben: Sie überschritten die zulässige Höchstgeschwindigkeit innerhalb geschlossener Ortschaften um ${speed} km/h. Zulässige Geschwindigkeit: 50 km/h. Festgestellte Geschwindigkeit (nach Toleranzabzug): ${50 + speed} km/h.`,
    },
    {
      kind: 'paragraph',
      text: '§ 41 Abs. 1 iVm Anlage 2, § 49 StVO; § 24 Abs. 1, 3 Nr. 5 StVG; 11.3.3 BKat. Beweismittel: Messprotokoll, Foto.',
    },
    {
      kind: 'pairs',
      valueAlign: 'right',
      rows: [
        ['Geldbuße', ctx.money(fine)],
        ['Gebühr (§ 107 Abs. 1 OWiG)', ctx.money(fees)],
        ['Auslagen (§ 107 Abs. 3 OWiG)', ctx.money(costs)],
        ['Gesamtbetrag', ctx.money(total)],
      ],
      boldRows: [3],
    },
    {
      kind: 'paragraph',
      text: `Bitte zahlen Sie den Gesamtbetrag bis zum ${ctx.d(due)} unter Angabe des Aktenzeichens ${file} auf das Konto der Stadtkasse Lindenau.`,
    },
    {
      kind: 'paragraph',
      text: 'Rechtsbehelfsbelehrung: Gegen diesen Bescheid können Sie innerhalb von zwei Wochen nach Zustellung schriftlich oder zur Niederschrift bei der oben bezeichneten Behörde Einspruch einlegen.',
    },
    { kind: 'paragraph', text: 'Im Auftrag\nKrüger' },
  ];
  return { model: docModel(ctx, blocks), truth: truth(ctx, 'notice', { reference: file, amount: total, due }) };
}

function priceChangeDe(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const account = refNumber(rng, '2## ### ###');
  const from = `${Number(ctx.docDate.slice(0, 4)) + 1}-01-01`;
  const oldRate = rng.amount(30.5, 34.5);
  const newRate = round2(oldRate + rng.amount(0.8, 2.4));
  const oldBase = rng.amount(11, 13);
  const newBase = round2(oldBase + 1.2);
  const ct = (v: number): string => `${ctx.num(v)} ct/kWh`;
  const blocks: Block[] = [
    window(ctx, [
      ['Vertragskonto', account],
      ['Datum', ctx.d(ctx.docDate)],
      ['Tarif', 'LindenauStrom Basis'],
    ]),
    { kind: 'heading', text: `Preisanpassung zum ${ctx.d(from)}` },
    { kind: 'paragraph', text: greeting(ctx) },
    {
      kind: 'paragraph',
      text: `die Kosten für Netznutzung und Beschaffung sind gestiegen. Deshalb passen wir zum ${ctx.d(from)} die Preise Ihres Stromtarifs an:`,
    },
    {
      kind: 'table',
      columns: [
        { header: 'Preisbestandteil (brutto)', align: 'left', width: 3 },
        { header: 'bisher', align: 'right', width: 1.5 },
        { header: `ab ${ctx.d(from)}`, align: 'right', width: 1.5 },
      ],
      rows: [
        ['Arbeitspreis', ct(oldRate), ct(newRate)],
        ['Grundpreis', `${ctx.num(oldBase)} €/Monat`, `${ctx.num(newBase)} €/Monat`],
      ],
    },
    {
      kind: 'paragraph',
      text: 'Sie haben das Recht, Ihren Vertrag ohne Einhaltung einer Kündigungsfrist zum Zeitpunkt des Wirksamwerdens der Preisänderung zu kündigen. Die Kündigung muss in Textform erfolgen.',
    },
    { kind: 'paragraph', text: 'Ihre Abschläge passen wir automatisch an; Sie müssen nichts weiter tun.' },
    { kind: 'paragraph', text: 'Mit freundlichen Grüßen\nIhre Stadtwerke Lindenau' },
  ];
  return { model: docModel(ctx, blocks), truth: truth(ctx, 'notice', { reference: account, amount: null, due: null }) };
}

function reminderDe(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const invoice = refNumber(rng, 'RE-2026-0###');
  const invoiceDate = addDays(ctx.docDate, -rng.int(30, 45));
  const amount = rng.amount(380, 1450);
  const fee = 5;
  const total = round2(amount + fee);
  const due = addDays(ctx.docDate, rng.pick([7, 10]));
  const blocks: Block[] = [
    window(ctx, [
      ['Datum', ctx.d(ctx.docDate)],
      ['Kundennummer', refNumber(rng, '1#####')],
    ]),
    { kind: 'heading', text: 'Zahlungserinnerung' },
    { kind: 'paragraph', text: greeting(ctx) },
    {
      kind: 'paragraph',
      text: `sicher haben Sie in der Hektik des Alltags übersehen, unsere Rechnung Nr. ${invoice} vom ${ctx.d(invoiceDate)} zu begleichen. Bis heute konnten wir keinen Zahlungseingang feststellen.`,
    },
    {
      kind: 'pairs',
      valueAlign: 'right',
      rows: [
        ['Rechnungsbetrag', ctx.money(amount)],
        ['bereits gezahlt', ctx.money(0)],
        ['Mahngebühr', ctx.money(fee)],
        ['Offener Betrag', ctx.money(total)],
      ],
      boldRows: [3],
    },
    {
      kind: 'paragraph',
      text: `Bitte überweisen Sie den offenen Betrag bis zum ${ctx.d(due)}. Sollten Sie die Zahlung inzwischen veranlasst haben, betrachten Sie dieses Schreiben bitte als gegenstandslos.`,
    },
    { kind: 'paragraph', text: 'Mit freundlichen Grüßen\nUwe Brandt' },
  ];
  return { model: docModel(ctx, blocks), truth: truth(ctx, 'notice', { reference: invoice, amount: total, due }) };
}

function pcnEn(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const pcn = refNumber(rng, 'AS########');
  const offence = addDays(ctx.docDate, -rng.int(1, 4));
  const due = addDays(ctx.docDate, 28);
  const reg = `${refNumber(rng, '@@')}${rng.int(15, 24)} ${refNumber(rng, '@@@')}`;
  const blocks: Block[] = [
    window(ctx, [
      ['PCN number', pcn],
      ['Date of notice', ctx.d(ctx.docDate)],
      ['Vehicle registration', reg],
    ]),
    { kind: 'heading', text: 'Penalty Charge Notice' },
    { kind: 'paragraph', text: 'Road Traffic Act 1991 / Traffic Management Act 2004', size: 8 },
    {
      kind: 'pairs',
      rows: [
        ['Date of contravention', ctx.d(offence)],
        ['Time', `${rng.int(8, 17)}:${String(rng.int(10, 59))}`],
        ['Location', 'Elwick Road car park, Ashford'],
        ['Contravention', '83 – Parked in a car park without clearly displaying a valid pay & display ticket'],
        ['Civil Enforcement Officer', `CEO ${rng.int(100, 999)}`],
        ['Penalty charge', ctx.money(70)],
      ],
      boldRows: [5],
    },
    {
      kind: 'paragraph',
      text: `The penalty charge of ${ctx.money(70)} must be paid by ${ctx.d(due)}. If it is not paid by then, a Charge Certificate may be issued and the charge increased by 50%.`,
    },
    {
      kind: 'paragraph',
      text: 'Pay online at ashford.example/pcn or call 01233 331 111, quoting the PCN number. You may challenge this notice in writing within 28 days.',
    },
  ];
  return { model: docModel(ctx, blocks), truth: truth(ctx, 'notice', { reference: pcn, amount: 70, due }) };
}

function interruptionEn(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const ref = refNumber(rng, 'BW/WKS/####');
  const day = addDays(ctx.docDate, rng.int(8, 16));
  const blocks: Block[] = [
    window(ctx, [
      ['Our reference', ref],
      ['Customer number', refNumber(rng, '9########')],
      ['Date', ctx.d(ctx.docDate)],
    ]),
    { kind: 'heading', text: 'Planned interruption to your water supply' },
    { kind: 'paragraph', text: greeting(ctx) },
    {
      kind: 'paragraph',
      text: `We are replacing a section of the water main in your area. To carry out the work safely we will need to turn off your water supply on ${ctx.d(day)} between 9am and 3pm.`,
    },
    {
      kind: 'paragraph',
      text: 'When the supply is restored the water may look cloudy or discoloured. This is not harmful; run your cold kitchen tap until it clears. Please do not use your washing machine or dishwasher until the water runs clear.',
    },
    {
      kind: 'paragraph',
      text: 'If anyone in your household relies on water for medical reasons, please call us on 0345 600 2218 so we can arrange bottled water.',
    },
    { kind: 'paragraph', text: 'We apologise for any inconvenience.' },
    { kind: 'paragraph', text: 'Yours sincerely,\nNetwork Operations Team' },
  ];
  return { model: docModel(ctx, blocks), truth: truth(ctx, 'notice', { reference: ref, amount: null, due: null }) };
}

function reminderEn(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const invoice = refNumber(rng, 'SKY-INV-#######');
  const invoiceDate = addMonths(ctx.docDate, -1);
  const overdue = rng.amount(24, 60);
  const fee = 5;
  const total = round2(overdue + fee);
  const due = addDays(ctx.docDate, 7);
  const blocks: Block[] = [
    window(ctx, [
      ['Account number', refNumber(rng, '5#########')],
      ['Invoice', invoice],
      ['Date', ctx.d(ctx.docDate)],
    ]),
    { kind: 'heading', text: 'Final reminder: your payment is overdue' },
    { kind: 'paragraph', text: greeting(ctx) },
    {
      kind: 'paragraph',
      text: `We haven't received payment for your bill dated ${ctx.d(invoiceDate)}. To avoid your service being restricted, please pay the amount below.`,
    },
    {
      kind: 'pairs',
      valueAlign: 'right',
      rows: [
        ['Overdue amount', ctx.money(overdue)],
        ['Late payment fee', ctx.money(fee)],
        ['Total now due', ctx.money(total)],
      ],
      boldRows: [2],
    },
    {
      kind: 'paragraph',
      text: `Please pay by ${ctx.d(due)}. If you have already paid, thank you, and please ignore this letter.`,
    },
    { kind: 'paragraph', text: 'Kind regards,\nSkylink Credit Team' },
  ];
  return { model: docModel(ctx, blocks), truth: truth(ctx, 'notice', { reference: invoice, amount: total, due }) };
}

function priceChangeEn(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const account = refNumber(rng, '60########');
  const from = `${Number(ctx.docDate.slice(0, 4)) + 1}-01-01`;
  const oldRate = rng.amount(24.5, 27.5);
  const newRate = round2(oldRate + rng.amount(0.6, 1.8));
  const blocks: Block[] = [
    window(ctx, [
      ['Account number', account],
      ['Date', ctx.d(ctx.docDate)],
      ['Tariff', 'Northwind Standard Variable'],
    ]),
    { kind: 'heading', text: `Your energy prices are changing on ${ctx.d(from)}` },
    { kind: 'paragraph', text: greeting(ctx) },
    {
      kind: 'paragraph',
      text: 'The energy price cap is rising, so we are changing the prices of your tariff. Here is what this means for you:',
    },
    {
      kind: 'table',
      columns: [
        { header: 'Electricity', align: 'left', width: 3 },
        { header: 'Current price', align: 'right', width: 1.5 },
        { header: 'New price', align: 'right', width: 1.5 },
      ],
      rows: [
        ['Unit rate (p/kWh)', oldRate.toFixed(2), newRate.toFixed(2)],
        ['Standing charge (p/day)', '53.35', '54.75'],
      ],
    },
    {
      kind: 'paragraph',
      text: `Based on your usage, your estimated annual cost will go from ${ctx.money(rng.amount(880, 960))} to ${ctx.money(rng.amount(970, 1040))}.`,
    },
    {
      kind: 'paragraph',
      text: 'You can switch tariff or supplier at any time without an exit fee. You do not need to do anything if you are happy to stay on this tariff.',
    },
    { kind: 'paragraph', text: 'Yours sincerely,\nNorthwind Energy' },
  ];
  return { model: docModel(ctx, blocks), truth: truth(ctx, 'notice', { reference: account, amount: null, due: null }) };
}
