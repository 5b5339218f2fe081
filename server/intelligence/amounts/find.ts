/**
 * Finds every amount in a document's text and labels it by what stands before it (on its line, or as a column header
 * above it) and after it (a tax, a unit price), so that picking the document's amount is a matter of ranking labels.
 */

import { findMoney } from '../money.ts';
import { indexLabelsOf, nearestLabel, combineLabels, type Doc, type LabelSpan } from '../text.ts';
import {
  markRemainders,
  markTaxRows,
  markTaxSummary,
  markTenderedWithChange,
  markUnlabelledSettlement,
  markUnlabelledTotals,
  restoreLostDecimals,
  restoreLostLastDigit,
} from './document-passes.ts';
import { CONDITIONAL_PAYMENT, INCLUSIVE_MISREAD, LABELS } from './labels.ts';
import { TOTAL_KINDS, type AmountCandidate, type AmountLabel } from './types.ts';

/** "inkl. 19 % MwSt.": the tax a total includes; an amount right after it is that tax, unless a total label is nearer. */
const INCLUDED_TAX =
  /(?:inkl\.?|inklusive|incl\.?|including|inclusive(?: of)?|inc\.|einschl\.?|einschließlich|compris|incluse?|inclusa|inclusief|incluido|incluida) ?(?:\d{1,2}(?:[.,]\d+)? ?% ?)?(?:der |gesetzl(?:\.|ichen)? |la |de |)?(?:mwst|ust|umsatzsteuer|mehrwertsteuer|vat|gst|sst|tva|btw|iva|tax|versst|[a-zäöü]*steuern?)\.?\)?/gi;
/** The taxes' names in the six languages and in the countries whose till receipts come in English. */
const TAX_NAMES = 'gst|vat|sst|tax|mwst|ust|tva|btw|iva';
/**
 * A bracketed note that the tax is included, right before the amount and without a rate: the amount is the gross total
 * ("(inkl. 19 % MwSt.) 19,00" with its rate is the tax). OCR may lose the opening bracket or the word's first letters.
 */
const TOTAL_WITH_TAX = new RegExp(
  `(?:inclusive|clusive|${INCLUSIVE_MISREAD}|incl\\.?|inkl\\.?|including|inclusief|incluido|inclusa|compris)(?: of| der| de)? (?:${TAX_NAMES})\\.?[)}\\]][^\\d%]{0,6}$`,
  'iu',
);
/** "Totale (IVA 7.7% inclusa) 640.00": the note after the tax's name, in brackets; the amount is the gross total. */
const TOTAL_WITH_TAX_AFTER = new RegExp(
  `\\((?:${TAX_NAMES})\\.?[^)\\d]{0,3}(?:\\d{1,2}(?:[.,]\\d+)? ?%)? ?(?:inclusa|inclusi?|incluida|incluido|inclus[ea]?|inkl\\.?|inbegrepen|included|incl\\.?)\\)[^\\d%]{0,6}$`,
  'iu',
);
/** "VAT 8% included in total 1.48": the tax a total contains, not that total. */
const TAX_IN_TOTAL = new RegExp(
  `(?<!\\p{L})(?:${TAX_NAMES})(?!\\p{L})[^\\d]{0,6}(?:\\d{1,2}(?:[.,]\\d+)? ?%)?[ :]*(?:is )?(?:included|incl\\.?|inclusive) in (?:the )?total`,
  'iu',
);
/**
 * What would be paid on another day than the one asked for: early with a cash discount ("bei Zahlung bis … Skonto;
 * Zahlbetrag dann 3.920,15 €"), or late with a fee ("Pay after due date 1,412.60"). Not the amount due.
 */
/** "27,91 € Mehrwertsteuer" / "€20.00 VAT": the label after the number says it is tax. */
const TAX_AFTER =
  /^ ?\)?[ :]*(?:\(?\d{1,2}(?:[.,]\d+)? ?%\)? ?)?(?:mwst|ust|umsatzsteuer|mehrwertsteuer|vat|tax|steuer)(?![a-zäöü])/i;
const TAX_LABELS = combineLabels<AmountLabel>([['excluded', INCLUDED_TAX]]);
/** A price per unit of consumption ("1,859 EUR/l", OCR "EUR/1", "0,32 €/kWh") or a column of them ("Standing charge (p/day)"). */
const RATE_AFTER =
  /^ ?\/ ?(?:kwh|mwh|l|1(?!\d)|ltr|liter|litre|m³|m3|m²|m2|qm|std|h|hr|km|stk|st|kg|g|t|day|tag|unit|einheit|page|seite)(?![a-zäöü])/i;
const RATE_LABEL = /\((?:p|ct|cent|pence|€|eur|£|\$) ?\/ ?(?:kwh|mwh|day|tag|l|ltr|m³|m3|km|unit|einheit|std|h)\)/iu;
/** Bank, phone and register lines: their digit groups look like amounts but only one with a currency and cents is one. */
const ID_LINE =
  /\b(?:iban|bic|swift|blz|tel(?:efon)?|fax|steuer-?nr|steuernummer|ust-?id|vat (?:no|reg)|hrb|hra|kontonummer|konto-nr|sort code|account no|routing)\b/iu;

/** Three lowercase words in a row: a sentence, whose amounts are mentioned in passing rather than stated. */
const PROSE = /\p{Ll}{3,} \p{Ll}{3,} \p{Ll}{3,}/u;

/** Every amount in the text with the label that stands before it (on its line, or as a column header above it). */
export function findAmounts(
  doc: Doc,
  blockedByLine: ReadonlyMap<number, ReadonlyArray<readonly [number, number]>>,
): AmountCandidate[] {
  const result: AmountCandidate[] = [];
  const money = findMoney(doc, blockedByLine);
  const labelLines = [...money.keys()].flatMap((n) => [n, n - 1]);
  const spans = indexLabelsOf(doc, labelLines, LABELS);
  const taxSpans = indexLabelsOf(doc, money.keys(), TAX_LABELS);
  for (const index of [...money.keys()].sort((a, b) => a - b)) {
    const line = doc.lines[index] ?? '';
    const tokens = money.get(index)!.filter((t) => t.currency || t.decimals);
    const idLine = ID_LINE.test(line);
    let header: AmountLabel[] | null = null;
    const prose = line.length > 70 && PROSE.test(line);
    const conditional = CONDITIONAL_PAYMENT.test(line);
    const taxes = taxSpans.get(index) ?? [];
    const lineSpans = spans.get(index);
    const outsideTax = lineSpans?.filter((span) => !taxes.some((t) => span.start >= t.start && span.end <= t.end));
    tokens.forEach((token, i) => {
      // A symbol OCR reads into a phone number ("Tel 09-222 £498") makes no amount of it: money there has cents.
      if (idLine && (!token.currency || !token.decimals)) return;
      const from = i > 0 ? tokens[i - 1]!.end : 0;
      const segment = line.slice(from, token.start);
      // "Gesamtbetrag inkl. MwSt. 119,00" is a total; "inkl. 19 % MwSt. 19,00" alone is the tax in it.
      // A label may take in the currency written before the number ("TOTAL EUR" 58,16): it ends where the digits start.
      const digits = token.start + (/^[^\d]*/u.exec(token.text)?.[0].length ?? 0);
      let hit = nearestLabel(outsideTax, from, digits) ?? nearestLabel(lineSpans, from, digits);
      if (hit && hit.distance > 40) hit = null;
      let label: AmountLabel = hit?.kind ?? 'none';
      // "Total 18.50 22.20": values after a total's with nothing between them are that total's columns (net, gross).
      const previous = result[result.length - 1];
      // A smaller value after a total is its tax column, not a gross.
      if (
        !hit &&
        i > 0 &&
        previous?.line === index &&
        TOTAL_KINDS.has(previous.label) &&
        !/\p{L}{2,}/u.test(segment) &&
        Math.abs(token.value) > Math.abs(previous.value)
      ) {
        label = previous.label;
      }
      if (!hit && !/\p{L}{2,}/u.test(segment) && index > 0 && !money.has(index - 1)) {
        // A header row above the values: map by column when the counts agree, or a single label above one value.
        header ??= headerLabels(spans.get(index - 1) ?? [], doc.lines[index - 1] ?? '');
        const headerLabel =
          header.length === tokens.length
            ? header[i]
            : header.length === 1 && tokens.length === 1
              ? header[0]
              : undefined;
        if (headerLabel) label = headerLabel;
      }
      if (TAX_AFTER.test(line.slice(token.end, token.end + 30)) || TAX_IN_TOTAL.test(segment)) label = 'excluded';
      // "Total Sales (Inclusive of GST) 64.30", "Gesamt (inkl. MwSt.) 119,00": the bracket closes the total's label.
      else if (label === 'excluded' && (TOTAL_WITH_TAX.test(segment) || TOTAL_WITH_TAX_AFTER.test(segment)))
        label = 'total';
      const rate =
        RATE_AFTER.test(line.slice(token.end, token.end + 12)) ||
        RATE_LABEL.test(line.slice(Math.max(0, token.start - 60), token.start));
      if (rate || conditional) label = 'excluded';
      result.push({ ...token, line: index, label, prose });
    });
  }
  markTaxSummary(result, doc.lines);
  markTaxRows(result, doc.lines);
  markRemainders(result);
  markTenderedWithChange(result);
  markUnlabelledSettlement(result);
  markUnlabelledTotals(result, doc.lines);
  restoreLostDecimals(result);
  restoreLostLastDigit(result);
  return result;
}

/** The labels of a header row, one per column, left to right; none on a row that itself holds amounts. */
function headerLabels(spans: readonly LabelSpan<AmountLabel>[], line: string): AmountLabel[] {
  if (!line || /\d[.,]\d{2}/.test(line)) return [];
  const hits = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const columns: AmountLabel[] = [];
  let end = -1;
  for (const hit of hits) {
    if (hit.start < end) continue;
    columns.push(hit.kind);
    end = hit.end;
  }
  return columns;
}
