/**
 * Who sent a document, as keys that survive a different spelling of its name: bank account (IBAN), VAT id, company
 * register or tax number, and last the name itself, normalised. Pure: read from the document's text.
 */

import { ibanIn } from '../../common/payment-codes.ts';
import { labelSources, withoutAccents } from '../intelligence/lexicon/index.ts';

export const SENDER_KEY_KINDS = ['iban', 'vat', 'register', 'name'] as const;
export type SenderKeyKind = (typeof SENDER_KEY_KINDS)[number];
export interface SenderKey {
  kind: SenderKeyKind;
  value: string;
}

/** Kinds that identify a sender by itself; a name only when none of these decides. */
export const STRONG_KINDS: ReadonlySet<SenderKeyKind> = new Set(['iban', 'vat', 'register']);

const IBAN = /\b([A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?)\b/g;
/** EU VAT ids and the Swiss UID: a country prefix and 8-12 digits or letters (e.g. an invented "DE 123 456 789"). */
const VAT_ID =
  /\b(ATU ?\d{8}|(?:BE|BG|CY|CZ|DE|DK|EE|EL|ES|FI|FR|GB|HR|HU|IE|IT|LT|LU|LV|MT|NL|PL|PT|RO|SE|SI|SK)[ .]?[0-9A-Z](?:[ .]?[0-9A-Z]){7,13}|CHE[- .]?\d{3}[ .]?\d{3}[ .]?\d{3})\b/g;
const REGISTER_LABEL = new RegExp(
  `(?<![\\p{L}])(?:${labelSources('vatId').join('|')})(?![\\p{L}])[\\s.:#°º-]*(?:nr\\.?|no\\.?|n°)?[\\s.:#-]*([A-Z]{0,3}[ -]?\\d[\\d .\\/-]{3,20}\\d)`,
  'giu',
);
/**
 * Lines that speak of the reader's own account or ids ("your IBAN", "Ihre USt-IdNr.", "votre compte", a debit
 * mandate): a direct debit or a business customer's invoice prints them, but they say nothing of who sent it.
 */
const RECIPIENT_LINE =
  /(?<![\p{L}])(?:your|ihre?[mnrs]?|votre|vos|uw|je|su|sus|vostr[oa]|tuo|customer|kunden?\p{L}*|client\p{L}*|klant\p{L}*|cliente|debtor|schuldner|d[ée]biteur|mandat\p{L}*|mandate|lastschrift|direct debit|pr[ée]l[eè]vement|incasso|domiciliaci[óo]n|addebito)(?![\p{L}])/iu;

/** The identity keys of a document: strong keys from its text, then its sender's normalised name. */
export function senderKeys(text: string, senderName: string | null): SenderKey[] {
  const keys = new Map<string, SenderKey>();
  const add = (kind: SenderKeyKind, value: string) => void keys.set(`${kind}:${value}`, { kind, value });
  for (const line of text.split(/\r?\n/)) {
    if (RECIPIENT_LINE.test(line)) continue;
    let upper = line.toUpperCase();
    for (const m of upper.matchAll(IBAN)) {
      const iban = ibanIn(compact(m[1]!));
      if (iban) add('iban', iban);
      // Parts of an account number, even a misread one, are no VAT id.
      upper = upper.replace(m[1]!, ' ');
    }
    for (const m of upper.matchAll(VAT_ID)) {
      const vat = compact(m[1]!);
      if (/\d{6}/.test(vat.replace(/\D/g, ''))) add('vat', vat.slice(0, 2) + ocrDigits(vat.slice(2)));
    }
    for (const m of upper.matchAll(REGISTER_LABEL)) {
      const printed = compact(m[1]!.toUpperCase());
      const register = ocrDigits(printed);
      const asVat = printed.slice(0, 2) + ocrDigits(printed.slice(2));
      if (register.replace(/\D/g, '').length >= 5 && !keys.has(`vat:${asVat}`)) add('register', register);
    }
  }
  const name = senderName ? normalizeSenderName(senderName) : '';
  if (name) add('name', name);
  return [...keys.values()];
}

const LEGAL_FORMS = new Set([
  'gmbh',
  'mbh',
  'ag',
  'kg',
  'ohg',
  'ug',
  'ek',
  'ev',
  'gbr',
  'co',
  'kgaa',
  'se',
  'ltd',
  'limited',
  'plc',
  'llc',
  'llp',
  'inc',
  'incorporated',
  'corp',
  'corporation',
  'company',
  'sa',
  'sas',
  'sarl',
  'sasu',
  'eurl',
  'sci',
  'bv',
  'nv',
  'vof',
  'cv',
  'srl',
  'spa',
  'snc',
  'sl',
  'slu',
  'sdn',
  'bhd',
  'pty',
  'pvt',
  'the',
  'und',
  'and',
  'et',
  'en',
  'y',
  'e',
]);

/**
 * A sender's name as a key: no accents, case, punctuation or legal form ("Müller & Söhne GmbH" and
 * "MUELLER + SOEHNE" differ only in the umlaut spelling, which is folded too).
 */
export function normalizeSenderName(name: string): string {
  const folded = withoutAccents(
    name.toLowerCase().replace(/ä/g, 'ae').replace(/ö/g, 'oe').replace(/ü/g, 'ue').replace(/ß/g, 'ss'),
  ).replace(/\./g, '');
  const words = folded.split(/[^a-z0-9]+/).filter((w) => w.length > 0 && !LEGAL_FORMS.has(w));
  return words.join(' ');
}

const compact = (value: string): string => value.replace(/[\s.\-/]/g, '');

/** Letters OCR reads for digits ("B98…" for "898…"): a number's key is the same however a scan printed it. */
const ocrDigits = (value: string): string =>
  value
    .replace(/[OQD]/g, '0')
    .replace(/[IL]/g, '1')
    .replace(/Z/g, '2')
    .replace(/S/g, '5')
    .replace(/G/g, '6')
    .replace(/B/g, '8');
