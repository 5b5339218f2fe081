/** Contracts: mobile, tenancy, gym, lease. Amount: the recurring fee; due date: the end of the fixed term (null if open-ended). */
import { addDays, addMonths } from '../format.ts';
import type { Block, BuiltDocument } from '../model.ts';
import { docModel, greeting, placeDate, refNumber, truth, window, type Ctx } from './common.ts';

const firstOfNextMonth = (iso: string): string => addMonths(`${iso.slice(0, 8)}01`, 1);

export function buildContract(ctx: Ctx): BuiltDocument {
  switch (ctx.s.key) {
    case 'telenova':
      return mobileDe(ctx);
    case 'wohnbau':
      return tenancyDe(ctx);
    case 'vitalis':
      return gymDe(ctx);
    case 'skylink':
      return mobileEn(ctx);
    case 'oakridge':
      return leaseUs(ctx);
    default:
      return gymEn(ctx);
  }
}

function mobileDe(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const number = refNumber(rng, 'VN-########');
  const customer = refNumber(rng, '4########');
  const begin = addDays(ctx.docDate, rng.int(2, 9));
  const end = addDays(addMonths(begin, 24), -1);
  const fee = rng.pick([24.99, 29.99, 34.99, 39.99]);
  const blocks: Block[] = [
    window(ctx, [
      ['Kundennummer', customer],
      ['Vertragsnummer', number],
      ['Datum', ctx.d(ctx.docDate)],
    ]),
    { kind: 'heading', text: 'Auftragsbestätigung und Vertragszusammenfassung' },
    { kind: 'paragraph', text: greeting(ctx) },
    {
      kind: 'paragraph',
      text: 'vielen Dank für Ihren Auftrag. Hiermit bestätigen wir Ihren Mobilfunkvertrag. Diese Vertragszusammenfassung enthält die wichtigsten Elemente dieses Angebots gemäß EU-Recht.',
    },
    {
      kind: 'pairs',
      rows: [
        ['Tarif', 'Nova Unlimited M (5G, 40 GB)'],
        ['Rufnummer', `0151 ${rng.digits(8)}`],
        ['Monatlicher Grundpreis', ctx.money(fee)],
        ['Einmaliger Bereitstellungspreis', ctx.money(39.99)],
        ['Vertragsbeginn', ctx.d(begin)],
        ['Mindestvertragslaufzeit', '24 Monate'],
        ['Vertragsende frühestens', ctx.d(end)],
        ['Kündigungsfrist', '1 Monat zum Ende der Mindestlaufzeit'],
      ],
    },
    {
      kind: 'paragraph',
      text: 'Nach Ablauf der Mindestvertragslaufzeit verlängert sich der Vertrag auf unbestimmte Zeit und ist dann jederzeit mit einer Frist von einem Monat kündbar.',
    },
    {
      kind: 'paragraph',
      text: `Die monatlichen Beträge ziehen wir per SEPA-Lastschrift ein. Ihre erste Rechnung erhalten Sie nach dem ${ctx.d(addDays(begin, 30))}.`,
    },
    {
      kind: 'paragraph',
      text: 'Widerrufsbelehrung: Sie haben das Recht, binnen vierzehn Tagen ohne Angabe von Gründen diesen Vertrag zu widerrufen.',
    },
    { kind: 'paragraph', text: 'Mit freundlichen Grüßen\nIhr Telenova Team' },
  ];
  return { model: docModel(ctx, blocks), truth: truth(ctx, 'contract', { reference: number, amount: fee, due: end }) };
}

function tenancyDe(ctx: Ctx): BuiltDocument {
  const { rng, s, r } = ctx;
  const number = refNumber(rng, 'NV-####/##');
  const begin = firstOfNextMonth(ctx.docDate);
  const base = rng.int(520, 690);
  const operating = rng.int(140, 190);
  const heating = rng.int(70, 110);
  const total = base + operating + heating;
  const flat = `${rng.int(1, 4)}. OG links, Wohnung Nr. ${rng.int(10, 48)}`;
  const paragraphs: Array<[string, string]> = [
    [
      '§ 1 Mietsache',
      `Die Genossenschaft überlässt dem Mitglied zur Nutzung die Wohnung in der Gartenstraße ${rng.int(30, 60)}, 34567 Lindenau, ${flat}, bestehend aus 3 Zimmern, Küche, Bad/WC, Flur, Balkon und einem Kellerraum. Die Wohnfläche beträgt ${rng.int(64, 78)},${rng.int(1, 9)} m². Die Wohnfläche dient nicht zur Festlegung des Mietgegenstandes.`,
    ],
    [
      '§ 2 Mietzeit',
      `Das Nutzungsverhältnis beginnt am ${ctx.d(begin)}. Es läuft auf unbestimmte Zeit. Das Mitglied kann mit einer Frist von drei Monaten zum Ende eines Kalendermonats kündigen. Die Kündigung bedarf der Schriftform.`,
    ],
    ['§ 3 Nutzungsgebühr (Miete)', 'Die monatliche Nutzungsgebühr setzt sich wie folgt zusammen:'],
  ];
  const blocks: Block[] = [
    { kind: 'heading', text: 'Dauernutzungsvertrag (Mietvertrag) für Wohnraum' },
    { kind: 'paragraph', text: `Vertrags-Nr. ${number}` },
    {
      kind: 'paragraph',
      text: `Zwischen der ${s.name}, ${s.street}, ${s.postcode} ${s.city}, vertreten durch den Vorstand – nachstehend „Genossenschaft“ genannt –`,
    },
    {
      kind: 'paragraph',
      text: `und ${r.name}, bisher wohnhaft ${r.street}, ${r.postcode} ${r.city} – nachstehend „Mitglied“ genannt – wird folgender Vertrag geschlossen:`,
    },
  ];
  for (const [h, p] of paragraphs)
    blocks.push({ kind: 'paragraph', text: h, bold: true }, { kind: 'paragraph', text: p });
  blocks.push({
    kind: 'pairs',
    valueAlign: 'right',
    rows: [
      ['Grundmiete (netto kalt)', ctx.money(base)],
      ['Vorauszahlung Betriebskosten', ctx.money(operating)],
      ['Vorauszahlung Heiz- und Warmwasserkosten', ctx.money(heating)],
      ['Monatliche Gesamtmiete', ctx.money(total)],
    ],
    boldRows: [3],
  });
  const more: Array<[string, string]> = [
    [
      '§ 4 Zahlung',
      'Die Gesamtmiete ist monatlich im Voraus, spätestens am dritten Werktag eines jeden Monats, kostenfrei auf das Konto der Genossenschaft zu zahlen. Für die Rechtzeitigkeit der Zahlung kommt es auf die Gutschrift an.',
    ],
    [
      '§ 5 Genossenschaftsanteile und Sicherheit',
      `Das Mitglied zeichnet Geschäftsanteile in Höhe von ${ctx.money(base * 3)}. Eine weitere Mietsicherheit wird nicht verlangt. Die Anteile werden nach Beendigung der Mitgliedschaft nach Maßgabe der Satzung ausgezahlt.`,
    ],
    [
      '§ 6 Betriebskosten',
      'Über die Vorauszahlungen auf die Betriebskosten sowie die Heiz- und Warmwasserkosten wird jährlich abgerechnet. Die Abrechnung erfolgt nach der Wohnfläche, soweit nicht ein Verbrauchserfassungssystem vorhanden ist.',
    ],
    [
      '§ 7 Schönheitsreparaturen',
      'Das Mitglied ist berechtigt, die Wohnung nach seinem Geschmack zu gestalten. Die Genossenschaft übernimmt die Schönheitsreparaturen nicht. Bei Auszug ist die Wohnung in vertragsgemäßem Zustand zurückzugeben.',
    ],
    [
      '§ 8 Tierhaltung',
      'Kleintiere dürfen ohne Zustimmung gehalten werden. Die Haltung von Hunden und Katzen bedarf der vorherigen schriftlichen Zustimmung der Genossenschaft, die nur aus wichtigem Grund versagt werden darf.',
    ],
    [
      '§ 9 Hausordnung',
      'Die Hausordnung ist Bestandteil dieses Vertrages. Das Mitglied verpflichtet sich, die Hausordnung einzuhalten und auf die übrigen Bewohner Rücksicht zu nehmen. Ruhezeiten gelten von 22:00 bis 6:00 Uhr sowie an Sonn- und Feiertagen.',
    ],
    [
      '§ 10 Schlüssel',
      `Dem Mitglied werden bei Übergabe ${rng.int(2, 4)} Wohnungsschlüssel, 2 Haustürschlüssel und 1 Briefkastenschlüssel ausgehändigt. Der Verlust von Schlüsseln ist unverzüglich anzuzeigen.`,
    ],
    [
      '§ 11 Sonstige Vereinbarungen',
      'Änderungen und Ergänzungen dieses Vertrages bedürfen der Schriftform. Sollte eine Bestimmung unwirksam sein, bleibt die Wirksamkeit der übrigen Bestimmungen unberührt.',
    ],
  ];
  for (const [h, p] of more) blocks.push({ kind: 'paragraph', text: h, bold: true }, { kind: 'paragraph', text: p });
  blocks.push(
    { kind: 'gap', size: 16 },
    { kind: 'paragraph', text: placeDate(ctx) },
    { kind: 'gap', size: 22 },
    {
      kind: 'pairs',
      rows: [
        ['______________________________', '______________________________'],
        [`${s.name} (Vorstand)`, 'Mitglied'],
      ],
      labelWidth: 250,
    },
  );
  return {
    model: docModel(ctx, blocks, { pageNumbers: true }),
    truth: truth(ctx, 'contract', { reference: number, amount: total, due: null }),
  };
}

function gymDe(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const number = refNumber(rng, '10####');
  const begin = firstOfNextMonth(ctx.docDate);
  const months = rng.pick([12, 24]);
  const end = addDays(addMonths(begin, months), -1);
  const fee = rng.pick([29.9, 34.9, 39.9, 44.9]);
  const blocks: Block[] = [
    window(ctx, [
      ['Mitgliedsnummer', number],
      ['Datum', ctx.d(ctx.docDate)],
      ['Studio', 'Lindenau Zentrum'],
    ]),
    { kind: 'heading', text: 'Mitgliedschaftsvertrag' },
    { kind: 'paragraph', text: greeting(ctx) },
    { kind: 'paragraph', text: 'willkommen bei Vitalis! Wir bestätigen Ihre Mitgliedschaft zu folgenden Bedingungen:' },
    {
      kind: 'pairs',
      rows: [
        ['Tarif', 'Premium (Geräte, Kurse, Sauna)'],
        ['Monatsbeitrag', ctx.money(fee)],
        ['Einmalige Aufnahmegebühr', ctx.money(29)],
        ['Halbjährliche Servicepauschale', ctx.money(19.9)],
        ['Beginn der Mitgliedschaft', ctx.d(begin)],
        ['Erstlaufzeit', `${months} Monate`],
        ['Ende der Erstlaufzeit', ctx.d(end)],
      ],
    },
    {
      kind: 'paragraph',
      text: 'Die Mitgliedschaft verlängert sich nach Ablauf der Erstlaufzeit auf unbestimmte Zeit und kann dann mit einer Frist von einem Monat gekündigt werden. Die Beiträge werden monatlich im Voraus per Lastschrift eingezogen.',
    },
    { kind: 'paragraph', text: 'Mit sportlichen Grüßen\nIhr Vitalis-Team' },
  ];
  return { model: docModel(ctx, blocks), truth: truth(ctx, 'contract', { reference: number, amount: fee, due: end }) };
}

function mobileEn(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const number = refNumber(rng, 'SKY-#######');
  const account = refNumber(rng, '5#########');
  const begin = addDays(ctx.docDate, rng.int(1, 5));
  const end = addDays(addMonths(begin, 24), -1);
  const fee = rng.pick([18, 22, 26.5, 31]);
  const blocks: Block[] = [
    window(ctx, [
      ['Account number', account],
      ['Agreement number', number],
      ['Date', ctx.d(ctx.docDate)],
    ]),
    { kind: 'heading', text: 'Your contract summary' },
    { kind: 'paragraph', text: greeting(ctx) },
    {
      kind: 'paragraph',
      text: 'Thanks for joining Skylink. This contract summary sets out the main elements of your service agreement, as required by Ofcom.',
    },
    {
      kind: 'pairs',
      rows: [
        ['Plan', 'Skylink Unlimited 5G SIM-only'],
        ['Monthly charge', ctx.money(fee)],
        ['One-off connection charge', ctx.money(0)],
        ['Start date', ctx.d(begin)],
        ['Minimum term', '24 months'],
        ['Minimum term ends', ctx.d(end)],
        ['Annual price rise', '£1.80 per month each April'],
      ],
    },
    {
      kind: 'paragraph',
      text: 'If you end your contract before the minimum term ends, an early termination charge applies. After the minimum term your plan continues monthly and you can leave with 30 days notice.',
    },
    { kind: 'paragraph', text: 'Your right to cancel: you have 14 days from the start date to cancel without charge.' },
    { kind: 'paragraph', text: 'Kind regards,\nThe Skylink team' },
  ];
  return { model: docModel(ctx, blocks), truth: truth(ctx, 'contract', { reference: number, amount: fee, due: end }) };
}

function leaseUs(ctx: Ctx): BuiltDocument {
  const { rng, s, r } = ctx;
  const number = refNumber(rng, 'L-2026-###');
  const begin = firstOfNextMonth(ctx.docDate);
  const end = addDays(addMonths(begin, 12), -1);
  const rent = rng.pick([1650, 1795, 1850, 1925]);
  const deposit = rent * 1.5;
  const clauses: Array<[string, string]> = [
    [
      '1. Premises',
      `Landlord leases to Tenant the residential unit located at 2215 Cedar Street, Apt 4B, Portland, OR 97205, together with one assigned parking space (No. ${rng.int(1, 40)}).`,
    ],
    [
      '2. Term',
      `The term of this Lease begins on ${ctx.d(begin)} and ends on ${ctx.d(end)}. Thereafter the tenancy continues month to month unless either party gives at least 30 days written notice.`,
    ],
    [
      '3. Rent',
      `Tenant shall pay monthly rent of ${ctx.money(rent)}, due in advance on the first day of each month. Rent received after the fifth day of the month is subject to a late fee of ${ctx.money(75)}.`,
    ],
    [
      '4. Security deposit',
      `Upon signing, Tenant shall pay a security deposit of ${ctx.money(deposit)}. The deposit will be returned within 31 days after the end of the tenancy, less lawful deductions.`,
    ],
    [
      '5. Utilities',
      "Tenant is responsible for electricity, internet and renter's insurance. Landlord pays water, sewer and garbage collection.",
    ],
    [
      '6. Maintenance and repairs',
      'Tenant shall keep the premises clean and sanitary and promptly report any needed repairs. Landlord will respond to urgent repairs within 24 hours.',
    ],
    [
      '7. Pets',
      'No pets are permitted without prior written consent of Landlord. Approved pets require an additional deposit.',
    ],
    [
      '8. Entry',
      'Landlord may enter the premises upon at least 24 hours notice for inspection, repairs or showing the unit, except in an emergency.',
    ],
    [
      '9. Smoking',
      'Smoking of any substance is prohibited inside the unit and within 25 feet of any building entrance.',
    ],
    ['10. Governing law', 'This Lease is governed by the Oregon Residential Landlord and Tenant Act, ORS Chapter 90.'],
  ];
  const blocks: Block[] = [
    { kind: 'heading', text: 'Residential Lease Agreement' },
    { kind: 'paragraph', text: `Lease No. ${number}` },
    {
      kind: 'paragraph',
      text: `This Lease is made on ${ctx.d(ctx.docDate)} between ${s.name}, as agent for the owner ("Landlord"), and ${r.name} ("Tenant").`,
    },
  ];
  for (const [h, p] of clauses) blocks.push({ kind: 'paragraph', text: h, bold: true }, { kind: 'paragraph', text: p });
  blocks.push(
    { kind: 'gap', size: 16 },
    {
      kind: 'pairs',
      rows: [
        ['Landlord: ____________________', 'Tenant: ____________________'],
        [`${s.name}`, r.name],
        ['Date:', ctx.d(ctx.docDate)],
      ],
      labelWidth: 260,
    },
  );
  return {
    model: docModel(ctx, blocks, { pageNumbers: true }),
    truth: truth(ctx, 'contract', { reference: number, amount: rent, due: end }),
  };
}

function gymEn(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const number = refNumber(rng, 'LG######');
  const begin = addDays(ctx.docDate, rng.int(0, 6));
  const end = addDays(addMonths(begin, 12), -1);
  const fee = rng.pick([29.99, 34.99, 39.99]);
  const blocks: Block[] = [
    window(ctx, [
      ['Membership no.', number],
      ['Date', ctx.d(ctx.docDate)],
      ['Home club', 'Lakeside, Ashford'],
    ]),
    { kind: 'heading', text: 'Membership agreement' },
    { kind: 'paragraph', text: greeting(ctx) },
    { kind: 'paragraph', text: 'Welcome to Lakeside Gym. This agreement confirms the terms of your membership.' },
    {
      kind: 'pairs',
      rows: [
        ['Membership type', 'Off-peak plus pool'],
        ['Monthly fee', ctx.money(fee)],
        ['Joining fee (paid today)', ctx.money(20)],
        ['Start date', ctx.d(begin)],
        ['Minimum term', '12 months'],
        ['Minimum term end date', ctx.d(end)],
      ],
    },
    {
      kind: 'paragraph',
      text: "Your monthly fee is collected by Direct Debit on the 1st of each month. After the minimum term your membership continues on a rolling monthly basis and may be cancelled with one month's notice.",
    },
    { kind: 'paragraph', text: 'Signed for Lakeside Gym Ltd: Membership Manager' },
  ];
  return { model: docModel(ctx, blocks), truth: truth(ctx, 'contract', { reference: number, amount: fee, due: end }) };
}
