/**
 * Till receipts: a narrow, tall page whose merchant is printed first, at the top, often in larger type, above its
 * address, tax number and the items.
 */

import type { PageLayout } from '../layout-types.ts';
import type { LayoutLine } from './lines.ts';

/** Type this many times the slip's typical size stands out: a sign, a heading. */
const PROMINENT = 1.3;
/** Height over width beyond which a page is a till roll rather than a sheet (Letter 1.29, A4 1.41, Legal 1.65). */
const TILL_ROLL_ASPECT = 1.7;
/** The merchant is among the first lines with words, near the top. */
const MERCHANT_LINES = 4;
const TOP_LINES = 8;

export function looksLikeReceipt(layouts: readonly PageLayout[]): boolean {
  return layouts.length > 0 && layouts.length <= 2 && layouts[0]!.aspect >= TILL_ROLL_ASPECT;
}

/** The words of a contact or tax line: a phone, a fax, an address on the web, a tax or company registration. */
const CONTACT_WORDS = 'tel|phone|fax|www|e-?mail|reg|gst|vat';
/** Not a name: a document-type word, a contact, tax or till line ("Table 7", "Counter 2"), a greeting. */
const NOT_MERCHANT = new RegExp(
  `\\b(?:receipt|invoice|tax|bill|tq|shopping|cash(?! ?(?:&|and|n) ?carry)|cashier|counter|table|pax|check|${CONTACT_WORDS}|date|welcome|thank|copy|kassenbon|beleg|quittung|rechnung|ticket|facture|reçu|factura|fattura|scontrino|kassabon|bonnetje)\\b`,
  'iu',
);
/** A street or a postcode makes a line an address line, not the merchant. */
const ADDRESS_LIKE =
  /\d{4,}|\b(?:street|st\.|road|rd\.?|avenue|ave|lane|lot|no\.|block|blk|floor|unit|straße|str\.|strasse|rue|via|calle|plaza|weg|laan|straat|plein)\b/iu;

/**
 * The merchant: the line with the largest type among the first lines with words, when it stands out; otherwise the
 * first line that reads as a name. Null when the top of the receipt has no such line.
 */
export function receiptMerchant(lines: readonly LayoutLine[]): { text: string; prominent: boolean } | null {
  const firstPage = lines[0]?.page;
  const page = lines.filter((line) => line.page === firstPage);
  const named = header(page).filter((line) => isNameLike(withoutRegistration(line.text)));
  // A line without a single capital is a note written or stamped on the slip, or a web address: the till prints
  // the merchant's name in capitals or title case.
  const printed = named.filter((line) => /\p{Lu}/u.test(line.text));
  const top = (printed.length > 0 ? printed : named).slice(0, MERCHANT_LINES);
  if (top.length === 0) return null;
  const sizes = page.map((line) => line.size).sort((a, b) => a - b);
  const typical = sizes[Math.floor(sizes.length / 2)] ?? 0;
  const largest = top.reduce((best, line) => (line.size > best.size ? line : best));
  if (largest.size >= typical * PROMINENT) {
    // A logo read as text gives a short word or broken words in large type ("Wemba", "Qmo h xa" for a drawing): the
    // name printed under it wins.
    const below = top[top.indexOf(largest) + 1];
    if (below && looksLikeLogo(largest.text) && isFullName(below.text))
      return { text: nameAround(below, page, typical), prominent: false };
    return { text: nameAround(largest, page, typical), prominent: true };
  }
  return { text: nameAround(top[0]!, page, typical), prominent: false };
}

/** Contact and tax lines: they follow the merchant's name, never come before it. */
const CONTACT = new RegExp(`\\b(?:${CONTACT_WORDS})\\b`, 'iu');

/**
 * The slip's header: its first lines, up to the address, phone or tax line that follows the first name (a word in
 * large type further down, "TABLE 12" or "SUBTOTAL", is not the merchant).
 */
function header(page: readonly LayoutLine[]): readonly LayoutLine[] {
  const top = page.slice(0, TOP_LINES);
  const firstName = top.findIndex((line) => isNameLike(withoutRegistration(line.text)));
  if (firstName < 0) return top;
  const end = top.findIndex((line, i) => i > firstName && (ADDRESS_LIKE.test(line.text) || CONTACT.test(line.text)));
  return end < 0 ? top : top.slice(0, end);
}

/** Words that leave a name unfinished at the end of a line, or carry it on at the start of the next. */
const CONNECTOR = /^(?:&|\+|and|of|und|et|de|du|des|en|y|e|di|del|van|von)$/iu;
/** A line of at most two short words ("SDN BHD", "S/B", "LTD.", "B.V."): a legal form or initials ending a name. */
const SHORT_TAIL = /^[\p{L}./]{1,4}(?:\s+[\p{L}./]{1,4})?$/u;

/**
 * The merchant's name with the rest of it, when the till roll's width broke it over two lines printed alike: the
 * line above ends with a connector ("HARDWARE &"), or the line below starts with one, or is only a legal form. Lines in
 * other type, or apart from it, are left out: a shop sign over its company name is two names. A sign set in large type
 * over two centred lines ("AU MOULIN" over "DE CLARA", "LAVADERO" over "LA PALMA") is one name even in two sizes.
 */
function nameAround(line: LayoutLine, page: readonly LayoutLine[], typical: number): string {
  const index = page.indexOf(line);
  let text = withoutRegistration(line.text);
  const above = page[index - 1];
  if (above && continuesOnto(above, line, typical)) text = `${withoutRegistration(above.text)} ${text}`;
  const below = page[index + 1];
  if (below && continuesOnto(line, below, typical)) text = `${text} ${withoutRegistration(below.text)}`;
  return text;
}

/** Centres this close (a share of the page's width) are one centred block. */
const CENTRED_ALIKE = 0.05;

function continuesOnto(upper: LayoutLine, lower: LayoutLine, typical: number): boolean {
  const ratio = lower.size / upper.size;
  const adjacent = lower.top > upper.top && lower.top - upper.bottom < Math.max(upper.size, lower.size);
  if (!adjacent) return false;
  const upperText = withoutRegistration(upper.text);
  const lowerText = withoutRegistration(lower.text);
  if (!isNameLike(upperText) || !isNameLike(lowerText)) return false;
  const sign =
    Math.min(upper.size, lower.size) >= typical * PROMINENT &&
    Math.abs(upper.x + upper.right - lower.x - lower.right) / 2 <= CENTRED_ALIKE &&
    !/\d/u.test(upperText + lowerText);
  if (sign) return true;
  if (ratio < 0.8 || ratio > 1.25) return false;
  const lastWord = upperText.split(/\s+/u).at(-1) ?? '';
  const firstWord = lowerText.split(/\s+/u)[0] ?? '';
  return (
    CONNECTOR.test(lastWord) || /[,-]$/u.test(upperText) || CONNECTOR.test(firstWord) || SHORT_TAIL.test(lowerText)
  );
}

/** "Corner Shop Ltd (123456-A)": a company number in brackets after the name is not part of it. */
function withoutRegistration(text: string): string {
  return text.replace(/[([{][^)\]}]*\d[^)\]}]*[)\]}]?\s*$/u, '').trim();
}

/** Fewer letters than this in the largest type at the top may be a logo misread as a word. */
const LOGO_LETTERS = 7;

const letterCount = (text: string): number => text.match(/\p{L}/gu)?.length ?? 0;

/** A short word, or words of which one starts in lower case ("Qmo h xa"): what OCR makes of a drawing. */
function looksLikeLogo(text: string): boolean {
  const words = text.split(/\s+/u).filter((word) => /\p{L}/u.test(word));
  return letterCount(text) < LOGO_LETTERS || words.some((word) => /^\p{Ll}/u.test(word));
}

/** Two words or more in capitals, ten letters at least, no number: "LOTUS LEAF RESTAURANT", not "Tro ke". */
function isFullName(text: string): boolean {
  if (/\d/u.test(text)) return false;
  const words = text.split(/\s+/u).filter((word) => /\p{L}{2,}/u.test(word));
  return words.length >= 2 && letterCount(text) >= 10 && words.every((word) => !/^\p{Ll}/u.test(word));
}

function isNameLike(text: string): boolean {
  const letters = letterCount(text);
  return (
    // "Cashier: 7", "Salesperson : Ann": a labelled field, not a name.
    !/\p{L}\s*:/u.test(text) &&
    letters >= 3 &&
    letters >= text.replace(/\s/g, '').length * 0.6 &&
    !NOT_MERCHANT.test(text) &&
    !ADDRESS_LIKE.test(text)
  );
}
