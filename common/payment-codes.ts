/**
 * Check digits and shapes of the codes a bank transfer needs: IBAN (ISO 13616), creditor reference (ISO 11649) and
 * BIC (ISO 9362). Shared by the service's extraction and the app's payment QR code.
 */

/** IBAN lengths per country, from the ISO 13616 IBAN registry. */
export const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24,
  AE: 23,
  AL: 28,
  AT: 20,
  AZ: 28,
  BA: 20,
  BE: 16,
  BG: 22,
  BH: 22,
  BI: 27,
  BR: 29,
  BY: 28,
  CH: 21,
  CR: 22,
  CY: 28,
  CZ: 24,
  DE: 22,
  DJ: 27,
  DK: 18,
  DO: 28,
  EE: 20,
  EG: 29,
  ES: 24,
  FI: 18,
  FK: 18,
  FO: 18,
  FR: 27,
  GB: 22,
  GE: 22,
  GI: 23,
  GL: 18,
  GR: 27,
  GT: 28,
  HN: 28,
  HR: 21,
  HU: 28,
  IE: 22,
  IL: 23,
  IQ: 23,
  IS: 26,
  IT: 27,
  JO: 30,
  KW: 30,
  KZ: 20,
  LB: 28,
  LC: 32,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  LY: 25,
  MC: 27,
  MD: 24,
  ME: 22,
  MK: 19,
  MN: 20,
  MR: 27,
  MT: 31,
  MU: 30,
  NI: 28,
  NL: 18,
  NO: 15,
  OM: 23,
  PK: 24,
  PL: 28,
  PS: 29,
  PT: 25,
  QA: 29,
  RO: 24,
  RS: 22,
  RU: 33,
  SA: 24,
  SC: 31,
  SD: 18,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  SO: 23,
  ST: 25,
  SV: 28,
  TL: 23,
  TN: 24,
  TR: 26,
  UA: 29,
  VA: 22,
  VG: 24,
  XK: 20,
  YE: 30,
};

/** Letters as ISO 7064 counts them (A = 10 … Z = 35), then the remainder mod 97, digit by digit (no big integers). */
function mod97(alphanumeric: string): number {
  let rest = 0;
  for (const char of alphanumeric) {
    const digits = /[A-Z]/.test(char) ? String(char.charCodeAt(0) - 55) : char;
    for (const digit of digits) rest = (rest * 10 + Number(digit)) % 97;
  }
  return rest;
}

/** An IBAN (compact, upper case) of a registered country, of that country's length, with right check digits. */
export function isValidIban(iban: string): boolean {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban) || IBAN_LENGTHS[iban.slice(0, 2)] !== iban.length) return false;
  return mod97(iban.slice(4) + iban.slice(0, 4)) === 1;
}

/** The IBAN a compact candidate holds, cut to its country's length (text read glued to its end), if it is valid. */
export function ibanIn(candidate: string): string | null {
  const length = IBAN_LENGTHS[candidate.slice(0, 2)];
  const iban = length ? candidate.slice(0, length) : candidate;
  return isValidIban(iban) ? iban : null;
}

/** An ISO 11649 creditor reference ("RF18 5390 0754 7034", compact): RF, two check digits, up to 21 characters. */
export function isValidCreditorReference(reference: string): boolean {
  if (!/^RF\d{2}[A-Z0-9]{1,21}$/.test(reference)) return false;
  return mod97(reference.slice(4) + reference.slice(0, 4)) === 1;
}

/** A BIC (ISO 9362): bank, country, location and an optional branch; the country one of the IBAN registry's or a major one. */
export function isValidBic(bic: string): boolean {
  const m = /^[A-Z]{4}([A-Z]{2})[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/.exec(bic);
  return m !== null && (m[1]! in IBAN_LENGTHS || BIC_ONLY_COUNTRIES.has(m[1]!));
}

/** Countries without IBANs whose banks a European bill may still name. */
const BIC_ONLY_COUNTRIES = new Set([
  'US',
  'CA',
  'AU',
  'NZ',
  'JP',
  'CN',
  'HK',
  'SG',
  'IN',
  'MY',
  'ZA',
  'MX',
  'AR',
  'CL',
  'KR',
  'TW',
  'TH',
  'ID',
  'PH',
  'VN',
]);

/** "DE89370400440532013000" → "DE89 3704 0044 0532 0130 00", as banks print it. */
export function groupIban(iban: string): string {
  return iban.replace(/(.{4})(?=.)/g, '$1 ');
}
