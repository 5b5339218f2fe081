/** Payment terms in the many ways invoices state them. Returns the sentence(s) and the due date they mean. */
import { addDays } from '../format.ts';
import type { Ctx } from './common.ts';

export interface Terms {
  lines: string[];
  due: string | null;
  kind: 'absolute' | 'relative' | 'debit' | 'skonto' | 'none';
}

export function paymentTerms(ctx: Ctx, total: number, fallback: Terms['kind'] = 'absolute'): Terms {
  const kind = ctx.opts.due ?? fallback;
  const { rng } = ctx;
  const de = ctx.lang === 'de';
  const iban = ctx.s.bank?.iban ?? '';
  const phrase = <T>(options: T[]): T => options[(ctx.opts.phrase ?? ctx.opts.variant) % options.length]!;
  switch (kind) {
    case 'none':
      return { lines: [], due: null, kind };
    case 'absolute': {
      const due = addDays(ctx.docDate, ctx.opts.dueDays ?? rng.pick([10, 14, 14, 21, 30]));
      const d = ctx.d(due);
      const line = de
        ? phrase([
            `Bitte überweisen Sie den Betrag von ${ctx.money(total)} bis zum ${d} auf das unten genannte Konto.`,
            `Zahlbar bis ${d} ohne Abzug.`,
            `Der Rechnungsbetrag ist fällig am ${d}.`,
            `Bitte zahlen Sie den Gesamtbetrag bis spätestens ${d}${iban ? ` auf unser Konto IBAN ${iban}` : ''}.`,
          ])
        : phrase([
            `Please pay by ${d}.`,
            `Payment due: ${d}`,
            `Please make sure your payment of ${ctx.money(total)} reaches us by ${d}.`,
            `Due date: ${d}`,
          ]);
      return { lines: [line], due, kind };
    }
    case 'relative': {
      const days = ctx.opts.dueDays ?? rng.pick([7, 10, 14, 14, 30, 30]);
      const due = addDays(ctx.docDate, days);
      const line = de
        ? phrase([
            `Zahlbar innerhalb von ${days} Tagen ohne Abzug.`,
            `Bitte begleichen Sie den Rechnungsbetrag innerhalb von ${days} Tagen nach Rechnungsdatum.`,
            `Zahlungsbedingungen: ${days} Tage netto.`,
            `Der Betrag ist innerhalb von ${days} Tagen ab Rechnungsdatum ohne Abzug zur Zahlung fällig.`,
          ])
        : phrase([
            `Payment due within ${days} days.`,
            `Terms: Net ${days}`,
            `Payment is due within ${days} days of the invoice date.`,
            `Please settle this invoice within ${days} days.`,
          ]);
      return { lines: [line], due, kind };
    }
    case 'debit': {
      const due = addDays(ctx.docDate, rng.pick([5, 7, 10, 12]));
      const d = ctx.d(due);
      const mandate = `${ctx.t('MR', 'DD')}${rng.digits(9)}`;
      const lines = de
        ? [
            `Den Rechnungsbetrag von ${ctx.money(total)} buchen wir am ${d} per SEPA-Lastschrift von Ihrem Konto ab.`,
            `Gläubiger-ID: DE98ZZZ0000${rng.digits(7)}, Mandatsreferenz: ${mandate}`,
          ]
        : [
            `We will collect ${ctx.money(total)} by Direct Debit on or after ${d} from your account ending ${rng.digits(4)}.`,
            `Direct Debit reference: ${mandate}`,
          ];
      return { lines, due, kind };
    }
    case 'skonto': {
      const net = addDays(ctx.docDate, 30);
      const early = addDays(ctx.docDate, 10);
      const discounted = Math.round(total * 98) / 100;
      const lines = de
        ? [
            `Zahlbar bis ${ctx.d(net)} ohne Abzug oder bis ${ctx.d(early)} abzüglich 2 % Skonto (${ctx.money(discounted)}).`,
          ]
        : [
            `Payment terms: 2% 10, net 30. Pay ${ctx.money(discounted)} by ${ctx.d(early)} or ${ctx.money(total)} by ${ctx.d(net)}.`,
          ];
      return { lines, due: net, kind };
    }
  }
}
