/** Offers and quotations. Amount: the offered total; due date: the last day the offer is valid. */
import { addDays, round2 } from '../format.ts';
import type { Block, BuiltDocument, InvoiceLine } from '../model.ts';
import { docModel, greeting, refNumber, truth, window, type Ctx } from './common.ts';
import { itemTable, totalsBlock } from './invoice.ts';

interface OfferSpec {
  number: string;
  title: string;
  intro: string;
  lines: InvoiceLine[];
  validDays: number;
  relative: boolean;
  outro: string;
}

function spec(ctx: Ctx): OfferSpec {
  const { rng } = ctx;
  switch (ctx.s.key) {
    case 'brandt':
      return {
        number: refNumber(rng, 'AN-2026-###'),
        title: 'Angebot Wallbox-Installation',
        intro:
          'vielen Dank für Ihre Anfrage. Gerne bieten wir Ihnen die Installation einer Wallbox in Ihrer Garage wie folgt an:',
        lines: [
          {
            name: 'Wallbox 11 kW mit Typ-2-Kabel 7,5 m, KfW-förderfähig',
            quantity: 1,
            unit: 'Stk.',
            unitPrice: rng.amount(690, 890),
            vatRate: 19,
          },
          {
            name: 'Leitungsschutzschalter, FI Typ A EV, Zählerschrankerweiterung',
            quantity: 1,
            unit: 'psch.',
            unitPrice: rng.amount(280, 390),
            vatRate: 19,
          },
          {
            name: 'Zuleitung NYM-J 5x6 mm² inkl. Verlegung',
            quantity: rng.int(12, 25),
            unit: 'm',
            unitPrice: rng.amount(14, 19),
            vatRate: 19,
          },
          {
            name: 'Montage, Inbetriebnahme, Anmeldung beim Netzbetreiber',
            quantity: 1,
            unit: 'psch.',
            unitPrice: rng.amount(320, 450),
            vatRate: 19,
          },
        ],
        validDays: 30,
        relative: false,
        outro:
          'Die Ausführung ist nach Auftragserteilung innerhalb von drei Wochen möglich. Wir freuen uns auf Ihren Auftrag.',
      };
    case 'kraemer':
      return {
        number: refNumber(rng, 'ANG-######'),
        title: 'Angebot',
        intro: 'vielen Dank für Ihren Besuch in unserem Einrichtungshaus. Wie besprochen bieten wir Ihnen an:',
        lines: [
          {
            name: 'Ecksofa „Bergen“, Stoff anthrazit, Ottomane links',
            quantity: 1,
            unit: 'Stk.',
            unitPrice: rng.amount(1290, 1790),
            vatRate: 19,
          },
          {
            name: 'Couchtisch „Oslo“ Eiche massiv',
            quantity: 1,
            unit: 'Stk.',
            unitPrice: rng.amount(290, 390),
            vatRate: 19,
          },
          { name: 'Lieferung und Montage', quantity: 1, unit: 'psch.', unitPrice: 79, vatRate: 19 },
        ],
        validDays: 14,
        relative: true,
        outro: 'Lieferzeit ca. 6-8 Wochen ab Auftragsbestätigung.',
      };
    case 'becker':
      return {
        number: refNumber(rng, 'A-#####'),
        title: 'Angebot Winterkompletträder',
        intro: 'gerne unterbreiten wir Ihnen folgendes Angebot für Ihr Fahrzeug:',
        lines: [
          {
            name: 'Winterreifen 205/55 R16 91H auf Stahlfelge, montiert',
            quantity: 4,
            unit: 'Stk.',
            unitPrice: rng.amount(129, 169),
            vatRate: 19,
          },
          { name: 'RDKS-Sensoren, angelernt', quantity: 4, unit: 'Stk.', unitPrice: rng.amount(39, 55), vatRate: 19 },
          {
            name: 'Radwechsel und Einlagerung Sommerräder (1 Saison)',
            quantity: 1,
            unit: 'psch.',
            unitPrice: 69,
            vatRate: 19,
          },
        ],
        validDays: 21,
        relative: false,
        outro: 'Terminvereinbarung gerne telefonisch oder online.',
      };
    case 'atlas':
      return {
        number: refNumber(rng, 'Q-####'),
        title: 'QUOTATION',
        intro: 'Thank you for your request. We are pleased to quote as follows:',
        lines: [
          {
            name: 'Sit-stand desk 60" x 30", white frame',
            quantity: rng.int(4, 8),
            unit: 'each',
            unitPrice: rng.amount(420, 520),
            vatRate: 8.25,
          },
          {
            name: 'Ergonomic mesh chair',
            quantity: rng.int(4, 8),
            unit: 'each',
            unitPrice: rng.amount(210, 260),
            vatRate: 8.25,
          },
          {
            name: 'Monitor arm, dual',
            quantity: rng.int(4, 8),
            unit: 'each',
            unitPrice: rng.amount(89, 119),
            vatRate: 8.25,
          },
          { name: 'Delivery and installation', quantity: 1, unit: 'each', unitPrice: 350, vatRate: 8.25 },
        ],
        validDays: 30,
        relative: true,
        outro: 'Lead time 2-3 weeks from receipt of purchase order.',
      };
    default:
      return {
        number: refNumber(rng, 'E-####'),
        title: 'Estimate',
        intro: 'Following our inspection of your vehicle, here is our estimate for the recommended work:',
        lines: [
          {
            name: 'Clutch kit (clutch, pressure plate, release bearing)',
            quantity: 1,
            unit: 'each',
            unitPrice: rng.amount(260, 340),
            vatRate: 20,
          },
          { name: 'Dual mass flywheel', quantity: 1, unit: 'each', unitPrice: rng.amount(380, 460), vatRate: 20 },
          { name: 'Labour', quantity: rng.int(5, 7), unit: 'hrs', unitPrice: 84, vatRate: 20 },
        ],
        validDays: 14,
        relative: false,
        outro: 'Please call us to book the work. Prices include parts and labour as listed.',
      };
  }
}

export function buildOffer(ctx: Ctx): BuiltDocument {
  if (ctx.s.key === 'fibrestream') return upgradeOffer(ctx);
  const { rng } = ctx;
  const de = ctx.lang === 'de';
  const sp = spec(ctx);
  const valid = addDays(ctx.docDate, sp.validDays);
  const { block: totals, total } = totalsBlock(ctx, sp.lines, {
    total: de ? 'Angebotssumme' : ctx.s.country === 'US' ? 'Quote total' : 'Total estimate',
  });
  const validity = sp.relative
    ? de
      ? `Dieses Angebot ist ${sp.validDays} Tage ab Angebotsdatum gültig.`
      : `This quotation is valid for ${sp.validDays} days from the date above.`
    : de
      ? `Dieses Angebot ist gültig bis ${ctx.d(valid)}.`
      : `This estimate is valid until ${ctx.d(valid)}.`;
  const blocks: Block[] = [
    window(
      ctx,
      de
        ? [
            ['Angebots-Nr.', sp.number],
            ['Datum', ctx.d(ctx.docDate)],
            ['Kundennummer', refNumber(rng, '1#####')],
          ]
        : [
            [ctx.s.country === 'US' ? 'Quote #' : 'Estimate no.', sp.number],
            ['Date', ctx.d(ctx.docDate)],
            ['Customer', refNumber(rng, 'C-####')],
          ],
    ),
    { kind: 'heading', text: sp.title },
    { kind: 'paragraph', text: greeting(ctx) },
    { kind: 'paragraph', text: sp.intro },
    itemTable(ctx, sp.lines),
    totals,
    { kind: 'paragraph', text: validity },
    { kind: 'paragraph', text: sp.outro },
    { kind: 'paragraph', text: de ? 'Mit freundlichen Grüßen' : 'Kind regards,' },
  ];
  return {
    model: docModel(ctx, blocks),
    truth: truth(ctx, 'offer', { reference: sp.number, amount: round2(total), due: valid }),
  };
}

function upgradeOffer(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const code = refNumber(rng, 'FS-UP-####');
  const price = rng.pick([89.99, 99.99, 109.99]);
  const ends = `${ctx.docDate.slice(0, 4)}-12-31`;
  const blocks: Block[] = [
    window(ctx, [
      ['Account number', refNumber(rng, '8### #### #### ####')],
      ['Offer code', code],
      ['Date', ctx.d(ctx.docDate)],
    ]),
    { kind: 'heading', text: 'An exclusive upgrade offer for you' },
    { kind: 'paragraph', text: greeting(ctx) },
    {
      kind: 'paragraph',
      text: `As a valued customer, you can upgrade to FibreStream 2 Gig for just ${ctx.money(price)} per month, guaranteed for 24 months. That is twice the speed for only $20.00 more than you pay today.`,
    },
    {
      kind: 'pairs',
      rows: [
        ['Plan', 'FibreStream 2 Gig (2000 Mbps)'],
        ['Monthly price', ctx.money(price)],
        ['Installation', 'Free (normally $99.00)'],
        ['Offer ends', ctx.d(ends)],
      ],
      boldRows: [1],
    },
    {
      kind: 'paragraph',
      text: `To accept, call 1-800-555-0142 or visit fibrestream.example/upgrade and enter offer code ${code} before ${ctx.d(ends)}.`,
    },
    { kind: 'paragraph', text: 'Sincerely,\nThe FibreStream Team' },
  ];
  return { model: docModel(ctx, blocks), truth: truth(ctx, 'offer', { reference: code, amount: price, due: ends }) };
}
