/** Invoices (and the visible page of e-invoices), German and English, for the senders that send them. */
import { addDays, addMonths, endOfMonth, formatDate, monthName, round2 } from '../format.ts';
import type { Block, BuiltDocument, InvoiceData, InvoiceLine } from '../model.ts';
import { invoiceTotals } from '../einvoice.ts';
import { closing, docModel, greeting, itemColumns, qtyText, refNumber, truth, window, type Ctx } from './common.ts';
import { paymentTerms } from './payment.ts';

interface Catalogue {
  name: string;
  unit: string;
  code: string;
  price: [number, number];
  qty: [number, number];
  vat?: number;
}

const CATALOGUES: Record<string, Catalogue[]> = {
  brandt: [
    { name: 'Arbeitszeit Elektromeister', unit: 'Std.', code: 'HUR', price: [68, 78], qty: [2, 6] },
    { name: 'Arbeitszeit Geselle', unit: 'Std.', code: 'HUR', price: [52, 59], qty: [3, 9] },
    { name: 'NYM-J 3x1,5 mm² Mantelleitung', unit: 'm', code: 'MTR', price: [0.9, 1.4], qty: [25, 60] },
    { name: 'Schalterprogramm reinweiß, Wechselschalter', unit: 'Stk.', code: 'H87', price: [11, 16], qty: [2, 8] },
    { name: 'FI/LS-Schalter B16 30 mA', unit: 'Stk.', code: 'H87', price: [48, 62], qty: [1, 3] },
    { name: 'Anfahrtspauschale', unit: 'psch.', code: 'C62', price: [29, 39], qty: [1, 1] },
  ],
  becker: [
    {
      name: 'Inspektion nach Herstellervorgabe, 60.000 km',
      unit: 'AW',
      code: 'C62',
      price: [9.5, 11.5],
      qty: [18, 26],
    },
    { name: 'Motoröl 5W-30 Longlife', unit: 'l', code: 'LTR', price: [17, 22], qty: [4, 5] },
    { name: 'Ölfilter', unit: 'Stk.', code: 'H87', price: [14, 21], qty: [1, 1] },
    { name: 'Innenraumfilter mit Aktivkohle', unit: 'Stk.', code: 'H87', price: [28, 39], qty: [1, 1] },
    { name: 'Bremsflüssigkeit DOT 4 erneuern', unit: 'AW', code: 'C62', price: [9.5, 11.5], qty: [6, 8] },
    { name: 'Scheibenwischerblätter vorn (Satz)', unit: 'Satz', code: 'SET', price: [29, 42], qty: [1, 1] },
    { name: 'Hauptuntersuchung (HU) inkl. AU', unit: 'psch.', code: 'C62', price: [139, 149], qty: [1, 1] },
    { name: 'Altölentsorgung', unit: 'psch.', code: 'C62', price: [4, 7], qty: [1, 1] },
  ],
  greenfield: [
    { name: 'Full service (labour)', unit: 'hrs', code: 'HUR', price: [78, 92], qty: [2, 3] },
    { name: 'Engine oil 5W-30', unit: 'litre', code: 'LTR', price: [11, 15], qty: [4, 5] },
    { name: 'Oil filter', unit: 'each', code: 'H87', price: [9, 14], qty: [1, 1] },
    { name: 'Air filter', unit: 'each', code: 'H87', price: [16, 24], qty: [1, 1] },
    { name: 'Front brake pads (set)', unit: 'set', code: 'SET', price: [58, 79], qty: [1, 1] },
    { name: 'MOT test', unit: 'each', code: 'C62', price: [54.85, 54.85], qty: [1, 1], vat: 0 },
  ],
  pixelwerk: [
    { name: 'Managed Hosting „Business M“, Monat', unit: 'Monat', code: 'MON', price: [79, 99], qty: [1, 1] },
    { name: 'Softwareentwicklung (Stundensatz)', unit: 'Std.', code: 'HUR', price: [95, 110], qty: [6, 24] },
    { name: 'SSL-Zertifikat Wildcard, 12 Monate', unit: 'Stk.', code: 'H87', price: [120, 160], qty: [1, 1] },
    { name: 'Wartungspauschale Content-Management-System', unit: 'psch.', code: 'C62', price: [140, 190], qty: [1, 1] },
  ],
  falk: [
    {
      name: 'Statische Berechnung Dachtragwerk, Leistungsphase 4',
      unit: 'psch.',
      code: 'C62',
      price: [2800, 4200],
      qty: [1, 1],
    },
    { name: 'Ortstermin Bestandsaufnahme', unit: 'Std.', code: 'HUR', price: [98, 115], qty: [3, 6] },
    { name: 'Wärmeschutznachweis nach GEG', unit: 'psch.', code: 'C62', price: [650, 980], qty: [1, 1] },
    { name: 'Nebenkosten pauschal (5 %)', unit: 'psch.', code: 'C62', price: [150, 260], qty: [1, 1] },
  ],
  rheintal: [
    {
      name: 'Visitenkarten 85 x 55 mm, 4/4-farbig, 350 g/m²',
      unit: 'Stk.',
      code: 'H87',
      price: [0.06, 0.09],
      qty: [500, 1000],
    },
    {
      name: 'Flyer DIN lang, 4/4-farbig, 135 g/m² Bilderdruck',
      unit: 'Stk.',
      code: 'H87',
      price: [0.08, 0.12],
      qty: [2500, 5000],
    },
    { name: 'Datencheck und Druckfreigabe', unit: 'psch.', code: 'C62', price: [19, 29], qty: [1, 1] },
    { name: 'Versand DHL Paket', unit: 'psch.', code: 'C62', price: [8.9, 12.9], qty: [1, 1] },
  ],
  bueroprofi: [
    { name: 'Kopierpapier A4 80 g/m², 500 Blatt', unit: 'Pack', code: 'PA', price: [4.2, 5.9], qty: [10, 40] },
    { name: 'Toner schwarz HL-L5100, Original', unit: 'Stk.', code: 'H87', price: [68, 89], qty: [1, 3] },
    { name: 'Ordner A4, 8 cm Rücken, blau', unit: 'Stk.', code: 'H87', price: [2.1, 3.4], qty: [10, 30] },
    { name: 'Bürodrehstuhl „ErgoPro 300“', unit: 'Stk.', code: 'H87', price: [219, 289], qty: [1, 2] },
    { name: 'Versandkostenpauschale', unit: 'psch.', code: 'C62', price: [6.9, 6.9], qty: [1, 1] },
  ],
  lumiere: [
    { name: 'Website redesign – design phase', unit: 'day', code: 'DAY', price: [650, 780], qty: [3, 6] },
    { name: 'Analytics dashboard setup', unit: 'lump sum', code: 'C62', price: [900, 1400], qty: [1, 1] },
    { name: 'Content migration (pages)', unit: 'page', code: 'H87', price: [35, 45], qty: [20, 40] },
  ],
};

function lines(ctx: Ctx, key: string, count: number, defaultVat: number): InvoiceLine[] {
  const catalogue = CATALOGUES[key];
  if (!catalogue) throw new Error(`no catalogue for ${key}`);
  const chosen = [...catalogue].sort(() => ctx.rng.next() - 0.5).slice(0, Math.min(count, catalogue.length));
  return chosen.map((c) => ({
    name: c.name,
    quantity: ctx.rng.int(c.qty[0], c.qty[1]),
    unit: c.unit,
    unitPrice: ctx.rng.amount(c.price[0], c.price[1]),
    vatRate: c.vat ?? defaultVat,
  }));
}

export function itemTable(ctx: Ctx, items: InvoiceLine[], withUnit = true): Block {
  return {
    kind: 'table',
    columns: itemColumns(ctx, withUnit),
    rows: items.map((l, i) => {
      const row = [String(i + 1), l.name, qtyText(ctx, l.quantity)];
      if (withUnit) row.push(l.unit);
      row.push(ctx.num(l.unitPrice), ctx.num(round2(l.quantity * l.unitPrice)));
      return row;
    }),
  };
}

export function totalsBlock(
  ctx: Ctx,
  items: InvoiceLine[],
  labels?: { net?: string; total?: string },
): { block: Block; total: number } {
  const t = invoiceTotals({ lines: items } as InvoiceData);
  const de = ctx.lang === 'de';
  const netLabel =
    labels?.net ??
    ctx.rng.pick(
      de
        ? ['Zwischensumme', 'Summe netto', 'Nettobetrag', 'Gesamt netto']
        : ['Subtotal', 'Net total', 'Total excl. VAT'],
    );
  const totalLabel =
    labels?.total ??
    ctx.rng.pick(
      de
        ? ['Gesamtbetrag', 'Rechnungsbetrag', 'Endbetrag', 'Zu zahlender Betrag', 'Gesamtsumme brutto']
        : ['Total', 'Total due', 'Amount due', 'Invoice total', 'Balance due'],
    );
  const rows: Array<{ label: string; value: string; bold?: boolean }> = [
    { label: netLabel, value: ctx.money(t.lineTotal) },
  ];
  for (const r of t.byRate) {
    if (r.rate === 0) continue;
    rows.push({
      label: de
        ? ctx.rng.pick([
            `zzgl. ${r.rate} % MwSt.`,
            `Umsatzsteuer ${r.rate} %`,
            `MwSt. ${r.rate} % auf ${ctx.num(r.basis)}`,
          ])
        : ctx.s.country === 'US'
          ? `Sales tax (${r.rate}%)`
          : ctx.rng.pick([`VAT @ ${r.rate}%`, `VAT (${r.rate}%)`]),
      value: ctx.money(r.tax),
    });
  }
  rows.push({ label: totalLabel, value: ctx.money(t.grandTotal), bold: true });
  return { block: { kind: 'totals', rows }, total: t.grandTotal };
}

export function buildInvoice(ctx: Ctx): BuiltDocument {
  const key = ctx.s.key;
  switch (key) {
    case 'stadtwerke':
      return utilityInvoiceDe(ctx);
    case 'telenova':
      return mobileInvoiceDe(ctx);
    case 'weiss':
      return dentalInvoiceDe(ctx);
    case 'northwind':
      return energyBillEn(ctx);
    case 'fibrestream':
      return broadbandBillUs(ctx);
    case 'riverside':
      return dentalInvoiceEn(ctx);
    default:
      return tradeInvoice(ctx);
  }
}

/** Craftsmen, garages, suppliers: line items, VAT, payment terms. Also the visible part of e-invoices. */
export function tradeInvoice(ctx: Ctx, typeCode: '380' | '381' = '380'): BuiltDocument {
  const { rng, s } = ctx;
  const de = ctx.lang === 'de';
  const patterns: Record<string, string> = {
    brandt: 'RE-2026-0###',
    becker: 'W-######',
    greenfield: 'GM/26/####',
    pixelwerk: 'PW-2026-####',
    falk: '2026-1##',
    rheintal: 'RD########',
    bueroprofi: 'BPS-26-######',
    lumiere: 'F2026-####',
  };
  const number = refNumber(rng, patterns[s.key] ?? 'INV-#####');
  const customer = refNumber(rng, de ? '1#####' : 'C-#####');
  const delivery = addDays(ctx.docDate, -rng.int(2, 12));
  const defaultVat = s.country === 'GB' ? 20 : s.country === 'FR' || s.country === 'IE' ? 0 : 19;
  const items = lines(ctx, s.key, ctx.opts.long ? 8 : rng.int(3, 5), defaultVat);
  const { block: totals, total } = totalsBlock(ctx, items);
  const terms = paymentTerms(ctx, total, 'relative');
  const buyerRef = s.key === 'pixelwerk' || s.key === 'falk' ? `04011000-${rng.digits(5)}-${rng.digits(2)}` : customer;
  const info: Array<[string, string]> = de
    ? [
        [rng.pick(['Rechnungsnummer', 'Rechnungs-Nr.', 'Rechnung Nr.']), number],
        ['Rechnungsdatum', ctx.d(ctx.docDate)],
        ['Kundennummer', customer],
        [rng.pick(['Lieferdatum', 'Leistungsdatum']), ctx.d(delivery)],
      ]
    : [
        ['Invoice No.', number],
        [rng.pick(['Invoice date', 'Date', 'Tax point']), ctx.d(ctx.docDate)],
        ['Customer No.', customer],
        ['Delivery date', ctx.d(delivery)],
      ];
  if (s.key === 'pixelwerk' || s.key === 'falk') info.splice(2, 1, ['Leitweg-ID', buyerRef]);
  if (s.key === 'becker')
    info.push(
      ['Kennzeichen', `LIN-${refNumber(rng, '@@')} ${rng.int(100, 9999)}`],
      ['km-Stand', `${rng.int(55, 68)}.${rng.digits(3)}`],
    );
  if (s.key === 'greenfield')
    info.push(
      ['Registration', `${refNumber(rng, '@@')}${rng.int(10, 25)} ${refNumber(rng, '@@@')}`],
      ['Mileage', `${rng.int(30, 70)},${rng.digits(3)}`],
    );
  const title =
    typeCode === '381'
      ? ctx.t('Gutschrift', 'Credit note')
      : ctx.t(rng.pick(['Rechnung', `Rechnung ${number}`]), rng.pick(['INVOICE', 'Tax invoice', 'Invoice']));
  const blocks: Block[] = [
    window(ctx, info, rng.chance(0.7) ? 'beside' : 'below'),
    { kind: 'heading', text: title },
    { kind: 'paragraph', text: greeting(ctx) },
    {
      kind: 'paragraph',
      text: de
        ? rng.pick([
            'vielen Dank für Ihren Auftrag. Wir berechnen Ihnen folgende Leistungen:',
            'für die ausgeführten Arbeiten erlauben wir uns, wie folgt zu berechnen:',
            'wir danken für Ihre Bestellung und stellen in Rechnung:',
          ])
        : rng.pick([
            'Thank you for your business. Please find the details of your invoice below.',
            'For work carried out as agreed:',
          ]),
    },
    itemTable(ctx, items),
    totals,
  ];
  if (items.some((l) => l.vatRate === 0) && (s.country === 'FR' || s.country === 'IE')) {
    blocks.push({
      kind: 'paragraph',
      text: 'VAT reverse charge – Article 196 of Council Directive 2006/112/EC. Customer VAT ID: DE 287 440 915.',
    });
  }
  if (!ctx.opts.abbreviated) for (const line of terms.lines) blocks.push({ kind: 'paragraph', text: line });
  else
    blocks.push({
      kind: 'paragraph',
      text: de
        ? 'Zahlungsbedingungen: siehe elektronische Rechnung (eingebettete XML-Datei).'
        : 'Payment terms: see the embedded e-invoice.',
    });
  blocks.push({
    kind: 'paragraph',
    text: de
      ? `Bitte geben Sie bei Zahlung die Rechnungsnummer ${number} an.`
      : `Please quote invoice number ${number} with your payment.`,
  });
  blocks.push(
    ...closing(
      ctx,
      rng.pick(de ? ['Ihr Serviceteam', 'Buchhaltung'] : ['Accounts Department', 'Customer Services']),
    ).slice(0, 1),
  );
  if (ctx.opts.long) blocks.push(...inspectionReport(ctx));
  const model = docModel(ctx, blocks, { pageNumbers: ctx.opts.long || rng.chance(0.3) });
  const invoice: InvoiceData = {
    typeCode,
    number,
    issueDate: ctx.docDate,
    dueDate: terms.due,
    currency: ctx.currency,
    seller: {
      name: s.name,
      street: s.street,
      postcode: s.postcode,
      city: s.city,
      country: s.country,
      vatId: s.vatId ?? '',
      email: s.email,
      phone: s.phone,
      iban: s.bank?.iban ?? '',
      bic: s.bank?.bic ?? '',
    },
    buyer: {
      name: ctx.r.name,
      street: ctx.r.street,
      postcode: ctx.r.postcode,
      city: ctx.r.city,
      country: ctx.r.country,
      reference: buyerRef,
    },
    lines: items,
    paymentTerms: terms.lines.join(' ') || ctx.t('Sofort fällig', 'Due on receipt'),
    deliveryDate: delivery,
  };
  return {
    model,
    truth: truth(ctx, typeCode === '381' ? 'credit_note' : 'invoice', {
      reference: number,
      amount: total,
      due: terms.due,
    }),
    invoice,
  };
}

function utilityInvoiceDe(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const number = refNumber(rng, '3004 #### ####');
  const account = refNumber(rng, '2## ### ###');
  const periodStart = addMonths(ctx.docDate.slice(0, 8) + '01', -1);
  const periodEnd = endOfMonth(periodStart);
  const meter = `1ESY${rng.digits(10)}`;
  const before = rng.int(20_000, 40_000);
  const used = rng.int(180, 420);
  const price = rng.amount(0.29, 0.36);
  const base = rng.amount(11.5, 14.9);
  const items: InvoiceLine[] = [
    { name: 'Arbeitspreis Strom (kWh)', quantity: used, unit: 'kWh', unitPrice: price, vatRate: 19 },
    {
      name: `Grundpreis (Monat) ${formatDate(periodStart, 'de-numeric')} – ${formatDate(periodEnd, 'de-numeric')}`,
      quantity: 1,
      unit: 'Monat',
      unitPrice: base,
      vatRate: 19,
    },
  ];
  const { block: totals, total } = totalsBlock(ctx, items, { total: 'Rechnungsbetrag' });
  const terms = paymentTerms(ctx, total, 'absolute');
  const blocks: Block[] = [
    window(ctx, [
      ['Rechnungsnummer', number],
      ['Vertragskonto', account],
      ['Datum', ctx.d(ctx.docDate)],
      ['Ihr Ansprechpartner', 'Kundenservice'],
      ['Telefon', ctx.s.phone],
    ]),
    { kind: 'heading', text: `Ihre Stromrechnung für ${monthName(periodStart, 'de')} ${periodStart.slice(0, 4)}` },
    { kind: 'paragraph', text: greeting(ctx) },
    {
      kind: 'paragraph',
      text: `anbei erhalten Sie die Rechnung für Ihre Stromlieferung im Zeitraum ${ctx.d(periodStart)} bis ${ctx.d(periodEnd)} an die Lieferstelle ${ctx.r.street}, ${ctx.r.postcode} ${ctx.r.city}.`,
    },
    {
      kind: 'table',
      columns: [
        { header: 'Zählernummer', align: 'left', width: 2 },
        { header: 'Ablesedatum', align: 'left', width: 1.4 },
        { header: 'Zählerstand alt', align: 'right', width: 1.4 },
        { header: 'Zählerstand neu', align: 'right', width: 1.4 },
        { header: 'Verbrauch', align: 'right', width: 1.2 },
      ],
      rows: [[meter, ctx.d(periodEnd), String(before), String(before + used), `${used} kWh`]],
    },
    itemTable(ctx, items, false),
    totals,
    ...terms.lines.map((text): Block => ({ kind: 'paragraph', text })),
    {
      kind: 'paragraph',
      text: `Im Rechnungsbetrag enthalten sind Stromsteuer, Netzentgelte und Konzessionsabgabe. Ihr nächster Abschlag ist am ${ctx.d(addDays(periodEnd, 45))} fällig.`,
    },
    { kind: 'paragraph', text: 'Mit freundlichen Grüßen\nIhre Stadtwerke Lindenau' },
  ];
  return {
    model: docModel(ctx, blocks),
    truth: truth(ctx, 'invoice', { reference: number, amount: total, due: terms.due }),
  };
}

function mobileInvoiceDe(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const number = refNumber(rng, 'MF-2026-########');
  const customer = refNumber(rng, '4########');
  const phone = `0151 ${rng.digits(8)}`;
  const periodStart = addMonths(ctx.docDate.slice(0, 8) + '01', -1);
  const periodEnd = endOfMonth(periodStart);
  // Telecom bills show gross prices; VAT is stated as included.
  const gross = [
    ['Grundgebühr Tarif „Nova Unlimited M“', rng.amount(29.99, 39.99)],
    ['Datenpass EU-Roaming 5 GB', rng.pick([0, 4.99, 9.99])],
    ['Verbindungen in andere Netze (Inland)', 0],
    ['Premiumdienste / Drittanbieter', rng.pick([0, 2.99])],
  ] as Array<[string, number]>;
  const total = round2(gross.reduce((s, [, v]) => s + v, 0));
  const vat = round2(total - total / 1.19);
  const terms = paymentTerms(ctx, total, 'debit');
  const blocks: Block[] = [
    window(ctx, [
      ['Kundennummer', customer],
      ['Rechnungsnummer', number],
      ['Rufnummer', phone],
      ['Rechnungsdatum', ctx.d(ctx.docDate)],
    ]),
    { kind: 'heading', text: 'Ihre Mobilfunkrechnung' },
    { kind: 'paragraph', text: `Abrechnungszeitraum: ${ctx.d(periodStart)} – ${ctx.d(periodEnd)}` },
    { kind: 'paragraph', text: greeting(ctx) },
    {
      kind: 'paragraph',
      text: 'hier ist Ihre aktuelle Rechnung. Alle Beträge enthalten die gesetzliche Umsatzsteuer.',
    },
    {
      kind: 'table',
      columns: [
        { header: 'Leistung', align: 'left', width: 5 },
        { header: 'Betrag', align: 'right', width: 1.5 },
      ],
      rows: gross.map(([name, v]) => [name, ctx.money(v)]),
    },
    {
      kind: 'totals',
      rows: [
        { label: 'Summe netto', value: ctx.money(round2(total - vat)) },
        { label: 'enthaltene USt. 19 %', value: ctx.money(vat) },
        { label: 'Rechnungsbetrag', value: ctx.money(total), bold: true },
      ],
    },
    ...terms.lines.map((text): Block => ({ kind: 'paragraph', text })),
    { kind: 'paragraph', text: 'Ihren Einzelverbindungsnachweis finden Sie im Kundenportal unter Mein Telenova.' },
  ];
  return {
    model: docModel(ctx, blocks),
    truth: truth(ctx, 'invoice', { reference: number, amount: total, due: terms.due }),
  };
}

function dentalInvoiceDe(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const number = refNumber(rng, '2026/####');
  const treatment = addDays(ctx.docDate, -rng.int(6, 20));
  const goz = [
    ['0010', 'Eingehende Untersuchung', 2.3, 12.94],
    ['1040', 'Professionelle Zahnreinigung, je Zahn', 2.3, 3.62],
    ['2060', 'Präparation einer Kavität und Füllung, einflächig', 2.3, 53.15],
    ['Ä1', 'Beratung, auch telefonisch', 2.3, 10.72],
    ['0070', 'Vitalitätsprüfung', 2.3, 4.4],
  ] as Array<[string, string, number, number]>;
  const rows = goz.slice(0, rng.int(3, 5)).map(([code, text, factor, base]) => {
    const count = code === '1040' ? rng.int(20, 28) : 1;
    return { code, text, factor, count, amount: round2(base * count) };
  });
  const material = rng.amount(8, 24);
  const total = round2(rows.reduce((s, r) => s + r.amount, 0) + material);
  const terms = paymentTerms(ctx, total, 'absolute');
  const blocks: Block[] = [
    window(ctx, [
      ['Rechnungsnummer', number],
      ['Rechnungsdatum', ctx.d(ctx.docDate)],
      ['Patient', ctx.r.name],
      ['Behandlungszeitraum', ctx.d(treatment)],
    ]),
    { kind: 'heading', text: 'Liquidation nach GOZ / GOÄ' },
    { kind: 'paragraph', text: greeting(ctx) },
    { kind: 'paragraph', text: 'für die zahnärztliche Behandlung erlaube ich mir, folgende Leistungen zu berechnen:' },
    {
      kind: 'table',
      columns: [
        { header: 'Datum', align: 'left', width: 1.2 },
        { header: 'Nr.', align: 'left', width: 0.7 },
        { header: 'Leistung', align: 'left', width: 4 },
        { header: 'Anz.', align: 'right', width: 0.6 },
        { header: 'Faktor', align: 'right', width: 0.8 },
        { header: 'Betrag €', align: 'right', width: 1.1 },
      ],
      rows: [
        ...rows.map((r) => [
          formatDate(treatment, 'de-numeric'),
          r.code,
          r.text,
          String(r.count),
          ctx.num(r.factor),
          ctx.num(r.amount),
        ]),
        [
          formatDate(treatment, 'de-numeric'),
          '',
          'Material- und Laborkosten (§ 4 Abs. 3 GOZ)',
          '1',
          '',
          ctx.num(material),
        ],
      ],
    },
    { kind: 'totals', rows: [{ label: 'Rechnungsbetrag', value: ctx.money(total), bold: true }] },
    { kind: 'paragraph', text: 'Zahnärztliche Leistungen sind gemäß § 4 Nr. 14 UStG von der Umsatzsteuer befreit.' },
    ...terms.lines.map((text): Block => ({ kind: 'paragraph', text })),
    { kind: 'paragraph', text: 'Mit freundlichen Grüßen\nDr. Anna Weiß' },
  ];
  return {
    model: docModel(ctx, blocks),
    truth: truth(ctx, 'invoice', { reference: number, amount: total, due: terms.due }),
  };
}

function energyBillEn(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const number = refNumber(rng, 'NW-########');
  const account = refNumber(rng, '60########');
  const periodStart = addMonths(ctx.docDate.slice(0, 8) + '01', -1);
  const periodEnd = endOfMonth(periodStart);
  const kwh = rng.int(190, 380);
  const unit = rng.amount(0.24, 0.29);
  const days = Number(periodEnd.slice(8, 10));
  const standing = rng.amount(0.5, 0.62);
  const items: InvoiceLine[] = [
    {
      name: `Electricity used ${kwh} kWh at ${(unit * 100).toFixed(2)}p`,
      quantity: kwh,
      unit: 'kWh',
      unitPrice: unit,
      vatRate: 5,
    },
    {
      name: `Standing charge ${days} days at ${(standing * 100).toFixed(2)}p`,
      quantity: days,
      unit: 'day',
      unitPrice: standing,
      vatRate: 5,
    },
  ];
  const t = invoiceTotals({ lines: items } as InvoiceData);
  const previous = rng.amount(60, 120);
  const terms = paymentTerms(ctx, t.grandTotal, 'absolute');
  const blocks: Block[] = [
    window(ctx, [
      ['Account number', account],
      ['Invoice number', number],
      ['Bill date', ctx.d(ctx.docDate)],
      ['Billing period', `${formatDate(periodStart, 'en-uk-short')} – ${formatDate(periodEnd, 'en-uk-short')}`],
    ]),
    { kind: 'heading', text: 'Your electricity bill' },
    { kind: 'paragraph', text: greeting(ctx) },
    {
      kind: 'paragraph',
      text: `Here is your bill for electricity supplied to ${ctx.r.street}. Your meter was read on ${ctx.d(periodEnd)}.`,
    },
    {
      kind: 'pairs',
      valueAlign: 'right',
      rows: [
        ['Balance from your last bill', ctx.money(previous)],
        ['Payment received – thank you', ctx.money(-previous)],
      ],
    },
    {
      kind: 'table',
      columns: [
        { header: 'Charges', align: 'left', width: 5 },
        { header: 'Amount', align: 'right', width: 1.4 },
      ],
      rows: items.map((l, i) => [l.name, ctx.money(t.lines[i]!.amount)]),
    },
    {
      kind: 'totals',
      rows: [
        { label: 'Total charges before VAT', value: ctx.money(t.lineTotal) },
        { label: 'VAT at 5%', value: ctx.money(t.taxTotal) },
        { label: 'Total amount due', value: ctx.money(t.grandTotal), bold: true },
      ],
    },
    ...terms.lines.map((text): Block => ({ kind: 'paragraph', text })),
    {
      kind: 'paragraph',
      text: 'Pay online at northwind-energy.co.uk/pay, by phone, or by bank transfer quoting your account number.',
    },
  ];
  return {
    model: docModel(ctx, blocks),
    truth: truth(ctx, 'invoice', { reference: number, amount: t.grandTotal, due: terms.due }),
  };
}

function broadbandBillUs(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const number = refNumber(rng, '7###-####');
  const account = refNumber(rng, '8### #### #### ####');
  const previous = rng.amount(80, 110);
  const service = rng.pick([69.99, 79.99, 89.99]);
  const equipment = 15;
  const fees = rng.amount(2, 4.5);
  const tax = round2((service + equipment) * 0.0425);
  const total = round2(service + equipment + fees + tax);
  const due = addDays(ctx.docDate, 21);
  const d = ctx.d(due);
  const blocks: Block[] = [
    window(ctx, [
      ['Account number', account],
      ['Invoice #', number],
      ['Statement date', ctx.d(ctx.docDate)],
      ['Due date', d],
    ]),
    { kind: 'heading', text: 'Your monthly bill' },
    {
      kind: 'pairs',
      valueAlign: 'right',
      rows: [
        ['Previous balance', ctx.money(previous)],
        [`Payment received ${formatDate(addDays(ctx.docDate, -18), 'en-us-short')} – thank you`, ctx.money(-previous)],
        ['Balance forward', ctx.money(0)],
      ],
    },
    {
      kind: 'table',
      columns: [
        { header: 'New charges', align: 'left', width: 5 },
        { header: 'Amount', align: 'right', width: 1.4 },
      ],
      rows: [
        ['Gigabit Internet 1000 Mbps', ctx.money(service)],
        ['Wi-Fi gateway rental', ctx.money(equipment)],
        ['Regulatory recovery fee', ctx.money(fees)],
        ['State & local taxes', ctx.money(tax)],
      ],
    },
    {
      kind: 'totals',
      rows: [
        { label: 'Total new charges', value: ctx.money(total) },
        { label: 'Amount due', value: ctx.money(total), bold: true },
      ],
    },
    {
      kind: 'paragraph',
      text: `Please pay ${ctx.money(total)} by ${d}. A late fee of $10.00 applies to balances not paid by the due date.`,
    },
    { kind: 'paragraph', text: 'Enroll in AutoPay at fibrestream.example/autopay and save $5.00 every month.' },
  ];
  return { model: docModel(ctx, blocks), truth: truth(ctx, 'invoice', { reference: number, amount: total, due }) };
}

function dentalInvoiceEn(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const number = refNumber(rng, 'RDC-#####');
  const patient = refNumber(rng, 'P####');
  const visit = addDays(ctx.docDate, -rng.int(3, 10));
  const items: InvoiceLine[] = [
    { name: 'Examination and consultation', quantity: 1, unit: 'each', unitPrice: 65, vatRate: 0 },
    { name: 'Scale and polish (hygienist)', quantity: 1, unit: 'each', unitPrice: rng.pick([75, 85]), vatRate: 0 },
    { name: 'Bitewing X-rays', quantity: 2, unit: 'each', unitPrice: 18, vatRate: 0 },
    {
      name: 'Composite filling, posterior',
      quantity: rng.int(1, 2),
      unit: 'each',
      unitPrice: rng.pick([145, 165]),
      vatRate: 0,
    },
  ];
  const t = invoiceTotals({ lines: items } as InvoiceData);
  const deposit = 50;
  const total = round2(t.grandTotal - deposit);
  const terms = paymentTerms(ctx, total, 'relative');
  const blocks: Block[] = [
    window(ctx, [
      ['Invoice no.', number],
      ['Date', ctx.d(ctx.docDate)],
      ['Patient ID', patient],
      ['Date of treatment', ctx.d(visit)],
    ]),
    { kind: 'heading', text: 'Invoice for dental treatment' },
    {
      kind: 'table',
      columns: itemColumns(ctx, false),
      rows: items.map((l, i) => [
        String(i + 1),
        l.name,
        String(l.quantity),
        ctx.num(l.unitPrice),
        ctx.num(t.lines[i]!.amount),
      ]),
    },
    {
      kind: 'totals',
      rows: [
        { label: 'Treatment total', value: ctx.money(t.grandTotal) },
        { label: `Deposit paid ${formatDate(visit, 'en-uk-short')}`, value: ctx.money(-deposit) },
        { label: 'Balance due', value: ctx.money(total), bold: true },
      ],
    },
    { kind: 'paragraph', text: 'Dental treatment is exempt from VAT.' },
    ...terms.lines.map((text): Block => ({ kind: 'paragraph', text })),
    {
      kind: 'paragraph',
      text: 'Thank you for choosing Riverside Dental Clinic. Your next check-up is recommended in six months.',
    },
  ];
  return {
    model: docModel(ctx, blocks),
    truth: truth(ctx, 'invoice', { reference: number, amount: total, due: terms.due }),
  };
}

/** The checklist a garage attaches to a service invoice; it makes the invoice run to a second page. */
function inspectionReport(ctx: Ctx): Block[] {
  const checks = [
    'Beleuchtungsanlage vorn/hinten',
    'Hupe, Warnblinkanlage',
    'Scheibenwischer und Waschanlage',
    'Reifenprofil vorn links',
    'Reifenprofil vorn rechts',
    'Reifenprofil hinten links',
    'Reifenprofil hinten rechts',
    'Reifenfülldruck inkl. Reserverad',
    'Bremsbeläge vorn',
    'Bremsbeläge hinten',
    'Bremsscheiben',
    'Bremsleitungen und -schläuche',
    'Stoßdämpfer',
    'Lenkung, Spurstangenköpfe',
    'Achsgelenke und Manschetten',
    'Abgasanlage auf Dichtheit',
    'Motor und Getriebe auf Undichtigkeiten',
    'Kühlmittelstand und Frostschutz',
    'Batterie (Ladezustand)',
    'Keilrippenriemen',
    'Unterboden, Korrosionsschutz',
    'Türscharniere geschmiert',
    'Service-Intervall zurückgesetzt',
  ];
  const rows = checks.map((c) => {
    const r = ctx.rng.next();
    return [
      c,
      r < 0.82 ? 'i. O.' : r < 0.95 ? 'beobachten' : 'erneuert',
      r < 0.82 ? '' : ctx.rng.pick(['Verschleiß ca. 60 %', 'nächste Inspektion prüfen', 'siehe Pos. 5']),
    ];
  });
  return [
    { kind: 'pagebreak' },
    { kind: 'heading', text: 'Anlage: Inspektionsprotokoll' },
    {
      kind: 'table',
      columns: [
        { header: 'Prüfpunkt', align: 'left', width: 3.2 },
        { header: 'Ergebnis', align: 'left', width: 1.2 },
        { header: 'Bemerkung', align: 'left', width: 2.4 },
      ],
      rows,
    },
    {
      kind: 'paragraph',
      text: 'Die nächste Inspektion ist in 12 Monaten oder nach 15.000 km fällig, je nachdem, was zuerst eintritt. Die Hauptuntersuchung wurde durchgeführt, die Plakette ist zugeteilt.',
    },
  ];
}
