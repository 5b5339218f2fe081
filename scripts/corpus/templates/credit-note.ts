/** Credit notes: returns, goodwill credits and service credits; the amount is the total credited. */
import { addDays, round2 } from '../format.ts';
import type { Block, BuiltDocument, InvoiceData, InvoiceLine } from '../model.ts';
import { invoiceTotals } from '../einvoice.ts';
import { docModel, greeting, refNumber, truth, window, type Ctx } from './common.ts';
import { itemTable, totalsBlock } from './invoice.ts';

interface CreditSpec {
  number: string;
  original: string;
  lines: InvoiceLine[];
  reason: string;
  refund: string;
}

function spec(ctx: Ctx): CreditSpec {
  const { rng } = ctx;
  const vat = ctx.s.country === 'GB' ? 20 : ctx.s.country === 'US' ? 0 : ctx.s.country === 'IE' ? 0 : 19;
  switch (ctx.s.key) {
    case 'kraemer':
      return {
        number: refNumber(rng, 'GS-2026-####'),
        original: refNumber(rng, 'RE-2026-#####'),
        lines: [
          {
            name: 'Rücknahme Couchtisch „Oslo“ Eiche massiv, 110 x 60 cm',
            quantity: 1,
            unit: 'Stk.',
            unitPrice: rng.amount(240, 380),
            vatRate: vat,
          },
          {
            name: 'Anteilige Lieferpauschale',
            quantity: 1,
            unit: 'psch.',
            unitPrice: rng.amount(20, 35),
            vatRate: vat,
          },
        ],
        reason:
          'wie telefonisch besprochen nehmen wir den beschädigt gelieferten Artikel zurück und schreiben Ihnen den Kaufpreis gut.',
        refund: 'Der Gutschriftsbetrag wird innerhalb von 5 Werktagen auf das uns bekannte Konto überwiesen.',
      };
    case 'telenova':
      return {
        number: refNumber(rng, 'GU-########'),
        original: refNumber(rng, 'MF-2026-########'),
        lines: [
          {
            name: 'Gutschrift Grundgebühr wegen Netzstörung (anteilig 9 Tage)',
            quantity: 1,
            unit: 'psch.',
            unitPrice: rng.amount(8, 12),
            vatRate: vat,
          },
          { name: 'Kulanzgutschrift', quantity: 1, unit: 'psch.', unitPrice: rng.pick([10, 15, 20]), vatRate: vat },
        ],
        reason: 'wir bedauern die Störung in Ihrem Mobilfunknetz und schreiben Ihnen folgende Beträge gut:',
        refund: 'Die Gutschrift wird mit Ihrer nächsten Rechnung verrechnet.',
      };
    case 'gadgetcorner':
      return {
        number: refNumber(rng, 'CN-#####'),
        original: refNumber(rng, 'GC-######'),
        lines: [
          {
            name: 'Wireless noise-cancelling headphones, black (returned)',
            quantity: 1,
            unit: 'each',
            unitPrice: rng.amount(120, 190),
            vatRate: vat,
          },
          {
            name: 'USB-C charging cable 2 m (returned)',
            quantity: 2,
            unit: 'each',
            unitPrice: rng.amount(8, 12),
            vatRate: vat,
          },
        ],
        reason: 'We have received your returned items and issued the following credit.',
        refund:
          'The refund has been made to the card used for the original purchase and should appear within 3-5 working days.',
      };
    case 'atlas':
      return {
        number: refNumber(rng, 'CM-####'),
        original: refNumber(rng, '1#####'),
        lines: [
          {
            name: 'Ergonomic mesh chair, returned (damaged in transit)',
            quantity: 2,
            unit: 'each',
            unitPrice: rng.amount(180, 240),
            vatRate: 0,
          },
          { name: 'Freight allowance', quantity: 1, unit: 'each', unitPrice: 35, vatRate: 0 },
        ],
        reason: 'This credit memo has been issued for the items listed below.',
        refund: 'The credit has been applied to your account and will be deducted from your next payment.',
      };
    case 'kestrel':
      return {
        number: refNumber(rng, 'KCS-CN-####'),
        original: refNumber(rng, 'KCS-2026-#####'),
        lines: [
          {
            name: 'Service credit – SLA breach, availability 99.2 % (October)',
            quantity: 1,
            unit: 'lump sum',
            unitPrice: rng.amount(60, 120),
            vatRate: 0,
          },
          {
            name: 'Refund: unused backup storage 500 GB',
            quantity: 2,
            unit: 'month',
            unitPrice: rng.amount(18, 25),
            vatRate: 0,
          },
        ],
        reason:
          'We are sorry for the service interruption in October. This credit note corrects invoice amounts as follows.',
        refund: 'The credited amount will be refunded to your bank account within 10 business days.',
      };
    default:
      throw new Error(`no credit note for ${ctx.s.key}`);
  }
}

export function buildCreditNote(ctx: Ctx): BuiltDocument {
  const { rng, s } = ctx;
  const de = ctx.lang === 'de';
  const sp = spec(ctx);
  const originalDate = addDays(ctx.docDate, -rng.int(10, 40));
  const us = s.country === 'US';
  const customer = refNumber(rng, de ? '7#####' : 'AC-#####');
  const title = de ? 'Gutschrift' : us ? 'CREDIT MEMO' : 'Credit note';
  const info: Array<[string, string]> = de
    ? [
        ['Gutschrift-Nr.', sp.number],
        ['Datum', ctx.d(ctx.docDate)],
        ['Zu Rechnung', sp.original],
        ['Kundennummer', customer],
      ]
    : [
        [us ? 'Memo #' : 'Credit note no.', sp.number],
        ['Date', ctx.d(ctx.docDate)],
        [us ? 'Applied to invoice #' : 'Original invoice', sp.original],
        ['Account', customer],
      ];
  let total: number;
  let totals: Block;
  if (s.key === 'kestrel' || us) {
    const t = invoiceTotals({ lines: sp.lines } as InvoiceData);
    total = t.grandTotal;
    totals = {
      kind: 'totals',
      rows: [
        {
          label: us ? 'Total credit' : 'Total credited (VAT 0 %, reverse charge)',
          value: ctx.money(total),
          bold: true,
        },
      ],
    };
  } else {
    const made = totalsBlock(ctx, sp.lines, { total: de ? 'Gutschriftsbetrag' : 'Total credit' });
    total = made.total;
    totals = made.block;
  }
  const blocks: Block[] = [
    window(ctx, info),
    { kind: 'heading', text: title },
    { kind: 'paragraph', text: greeting(ctx) },
    { kind: 'paragraph', text: sp.reason },
    {
      kind: 'paragraph',
      text: de
        ? `Bezug: Rechnung ${sp.original} vom ${ctx.d(originalDate)}`
        : `Reference: invoice ${sp.original} dated ${ctx.d(originalDate)}`,
    },
    itemTable(ctx, sp.lines),
    totals,
    { kind: 'paragraph', text: sp.refund },
    {
      kind: 'paragraph',
      text: de
        ? 'Mit freundlichen Grüßen\nIhr Kundenservice'
        : us
          ? 'Accounts Receivable'
          : 'Kind regards,\nCustomer Services',
    },
  ];
  const invoice: InvoiceData = {
    typeCode: '381',
    number: sp.number,
    issueDate: ctx.docDate,
    dueDate: null,
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
      reference: customer,
    },
    lines: sp.lines,
    paymentTerms: sp.refund,
    deliveryDate: originalDate,
    preceding: { number: sp.original, date: originalDate },
  };
  return {
    model: docModel(ctx, blocks),
    truth: truth(ctx, 'credit_note', { reference: sp.number, amount: round2(total), due: null }),
    invoice,
  };
}
