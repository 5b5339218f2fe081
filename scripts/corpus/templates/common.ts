/** Shared pieces of the templates: the context a template gets, letterheads, footers, number and date writing. */
import type { EventType } from '../../../common/archive-types.ts';
import {
  addDays,
  formatDate,
  formatMoney,
  formatNumber,
  type DateStyle,
  type Lang,
  type MoneyStyle,
} from '../format.ts';
import type { Block, BuiltDocument, Column, DocModel, Letterhead } from '../model.ts';
import { cityLine, returnAddress, type Recipient, type Sender } from '../parties.ts';
import type { Rng } from '../rng.ts';

export interface PlanOptions {
  /** Template variant; templates use it modulo their number of variants. */
  variant: number;
  /** How the due date is written: a date, a number of days, a direct debit date. */
  due?: 'absolute' | 'relative' | 'debit' | 'skonto' | 'none';
  /** Which wording of the payment terms (index into the template's phrasings); default: by variant. */
  phrase?: number;
  /** Days allowed for payment. */
  dueDays?: number;
  dateStyle?: DateStyle;
  moneyStyle?: MoneyStyle;
  /** Business recipient (B2B, e-invoices). */
  business?: boolean;
  /** Two pages or more. */
  long?: boolean;
  /** E-invoices: the visible page leaves things out (the XML carries them). */
  abbreviated?: boolean;
  /** 'variety': the six-language billing templates of billing-variety.ts instead of the type's default one. */
  template?: 'variety';
}

export interface Ctx {
  rng: Rng;
  s: Sender;
  r: Recipient;
  lang: Lang;
  opts: PlanOptions;
  docDate: string;
  dateStyle: DateStyle;
  moneyStyle: MoneyStyle;
  currency: string;
  /** German or English text, by the document's language. */
  t(de: string, en: string): string;
  d(iso: string): string;
  money(value: number): string;
  num(value: number): string;
}

export function makeCtx(rng: Rng, s: Sender, r: Recipient, opts: PlanOptions, docDate: string): Ctx {
  const lang = s.lang;
  const dateStyle =
    opts.dateStyle ??
    (lang === 'de'
      ? rng.pick<DateStyle>(['de-numeric', 'de-numeric', 'de-long', 'de-numeric'])
      : s.country === 'US'
        ? rng.pick<DateStyle>(['en-us-short', 'en-us-long'])
        : rng.pick<DateStyle>(['en-uk-long', 'en-uk-short']));
  const moneyStyle =
    opts.moneyStyle ??
    (lang === 'de'
      ? rng.pick<MoneyStyle>(['de-suffix', 'de-suffix', 'de-suffix-code', 'de-prefix-code'])
      : rng.pick<MoneyStyle>(['en-symbol', 'en-symbol', 'en-prefix-code']));
  const spaceGrouping = moneyStyle === 'de-space';
  return {
    rng,
    s,
    r,
    lang,
    opts,
    docDate,
    dateStyle,
    moneyStyle,
    currency: s.currency,
    t: (de, en) => (lang === 'de' ? de : en),
    d: (iso) => formatDate(iso, dateStyle),
    money: (value) => formatMoney(value, s.currency, moneyStyle),
    num: (value) => formatNumber(value, lang, spaceGrouping),
  };
}

export function letterhead(s: Sender): Letterhead {
  const lines = [s.street, cityLine(s)];
  if (s.lang === 'de') lines.push(`Telefon ${s.phone}`, s.web);
  else lines.push(`Tel ${s.phone}`, s.email);
  return { name: s.name, tagline: s.tagline, lines };
}

export function footer(s: Sender): string[][] {
  const de = s.lang === 'de';
  const cols: string[][] = [];
  cols.push([s.name, s.street, cityLine(s)]);
  cols.push(
    de ? [`Tel. ${s.phone}`, `E-Mail: ${s.email}`, s.web] : [`Phone: ${s.phone}`, `Email: ${s.email}`, `Web: ${s.web}`],
  );
  if (s.bank)
    cols.push(
      de
        ? [s.bank.name, `IBAN ${s.bank.iban}`, `BIC ${s.bank.bic}`]
        : [s.bank.name, `IBAN ${s.bank.iban}`, `SWIFT/BIC ${s.bank.bic}`],
    );
  const legal: string[] = [];
  if (s.registry) legal.push(...splitLong(s.registry, 46));
  if (s.managers) legal.push(s.managers);
  if (s.vatId) legal.push(de ? `USt-IdNr. ${s.vatId}` : `VAT No. ${s.vatId}`);
  if (legal.length) cols.push(legal);
  return cols;
}

function splitLong(text: string, max: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && (line + ' ' + word).length > max) {
      out.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(line);
  return out;
}

export function docModel(
  ctx: Ctx,
  blocks: Block[],
  options: { pageNumbers?: boolean; paper?: DocModel['paper']; footer?: boolean } = {},
): DocModel {
  return {
    lang: ctx.lang,
    paper: options.paper ?? (ctx.s.country === 'US' ? 'letter' : 'a4'),
    style: ctx.s.style,
    letterhead: letterhead(ctx.s),
    blocks,
    footer: options.footer === false ? [] : footer(ctx.s),
    pageNumbers: options.pageNumbers ?? false,
  };
}

export function window(ctx: Ctx, info: Array<[string, string]>, placement: 'beside' | 'below' = 'beside'): Block {
  return {
    kind: 'window',
    returnAddress: ctx.rng.chance(0.85) ? returnAddress(ctx.s) : null,
    recipient: ctx.r.lines,
    info,
    infoPlacement: placement,
  };
}

/** "Lindenau, 3. November 2026" / "3 November 2026". */
export function placeDate(ctx: Ctx): string {
  return ctx.lang === 'de' ? `${ctx.s.city}, ${ctx.d(ctx.docDate)}` : ctx.d(ctx.docDate);
}

export function itemColumns(ctx: Ctx, withUnit: boolean): Column[] {
  const cols: Column[] = [
    { header: ctx.t('Pos.', 'Item'), align: 'left', width: 0.6 },
    { header: ctx.t('Bezeichnung', 'Description'), align: 'left', width: 4.2 },
    { header: ctx.t('Menge', 'Qty'), align: 'right', width: 0.9 },
  ];
  if (withUnit) cols.push({ header: ctx.t('Einheit', 'Unit'), align: 'left', width: 0.9 });
  cols.push({ header: ctx.t('Einzelpreis', 'Unit price'), align: 'right', width: 1.4 });
  cols.push({ header: ctx.t('Gesamt', 'Amount'), align: 'right', width: 1.4 });
  return cols;
}

export function qtyText(ctx: Ctx, q: number): string {
  return Number.isInteger(q) ? String(q) : ctx.num(q);
}

export function refNumber(rng: Rng, pattern: string): string {
  // # = digit, @ = capital letter
  return pattern
    .replace(/#/g, () => String(rng.int(0, 9)))
    .replace(/@/g, () => String.fromCharCode(65 + rng.int(0, 25)));
}

export function greeting(ctx: Ctx): string {
  return ctx.r.salutation;
}

export function closing(ctx: Ctx, person: string): Block[] {
  return [
    {
      kind: 'paragraph',
      text: ctx.t('Mit freundlichen Grüßen', ctx.s.country === 'US' ? 'Sincerely,' : 'Yours sincerely,'),
    },
    { kind: 'gap', size: 12 },
    { kind: 'paragraph', text: `${person}\n${ctx.s.name}` },
  ];
}

export function truth(
  ctx: Ctx,
  event_type: EventType,
  fields: { reference: string | null; amount: number | null; due: string | null; category?: string },
): BuiltDocument['truth'] {
  return {
    event_type,
    sender_name: ctx.s.name,
    reference_number: fields.reference,
    amount: fields.amount === null ? null : { value: fields.amount, currency: ctx.currency },
    document_date: ctx.docDate,
    due_date: fields.due,
    category: fields.category ?? ctx.s.category,
  };
}

export { addDays };
