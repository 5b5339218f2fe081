/**
 * The country a document comes from, as far as its text says it: a country name (in the country's own language or
 * one of the six the archive reads), an international dialling code or a company form of that country ("Sdn Bhd",
 * "Pte Ltd", "Pty Ltd", "Pvt Ltd"). Used to resolve currency symbols that several
 * countries share ("$", "kr", "Rs", "¥").
 */

/** ISO 3166-1 alpha-2 → what names it in a text. Names need word boundaries; dialling codes a "+" before them. */
const SIGNS: ReadonlyArray<readonly [string, RegExp]> = [
  ['AU', /\b(?:australia|australie|australien|australië)(?!\p{L})|\+61\b|\bABN\b|\bPty\.? Ltd\b/iu],
  ['CA', /\b(?:canada|kanada|qu[ée]bec|ontario)\b|\b(?:HST|QST) ?(?:no|#|reg)/iu],
  // Its cities and its web domain too: an address names the city, not the country.
  [
    'NZ',
    /\b(?:new zealand|nouvelle-z[ée]lande|neuseeland|nieuw-zeeland|nueva zelanda|nuova zelanda|auckland|wellington|christchurch|dunedin|tauranga)\b|\+64\b|\.co\.nz\b/iu,
  ],
  ['SG', /\b(?:singapore|singapur|singapour)\b|\+65\b|\bPte\.? Ltd\b/iu],
  ['HK', /\bhong kong\b|\+852\b/iu],
  // Its tax id (RFC), its capital's short name, "moneda nacional" after an amount in words.
  // "M.N." after an amount is Mexico's moneda nacional; elsewhere it may be a doctor's licence (Argentina's matrícula).
  ['MX', /\b(?:m[ée]xico|mexique|mexiko|messico|CDMX)\b|\+52\b|\bRFC\b|\d ?M\.N\.|pesos? M\.N\./iu],
  // Its tax id (CUIT) and tax office (AFIP).
  ['AR', /\b(?:argentina|argentine|argentinien|argentini[ëe]|buenos aires)\b|\+54\b|\bCUIT\b|\bAFIP\b/iu],
  // Buenos Aires city's short name, in capitals only ("caba" begins Spanish words).
  ['AR', /\bC\.?A\.?B\.?A\.?(?![\p{L}])/u],
  // Chile by its tax id (RUT) and dialling code, Colombia by its dialling code and largest cities: their names also
  // name coffees and peppers on an item line.
  ['CL', /\+56\b|\bRUT\b/u],
  // Uruguay by its name, its capital and its dialling code; it writes its tax id "RUT" as Chile does.
  ['UY', /\b(?:uruguay|montevideo)\b|\+598\b/iu],
  // Peru by its tax id (RUC) and tax office (SUNAT), its company form and its capital.
  ['PE', /\b(?:per[úu]|lima)\b|\+51\b|\bRUC\b|\bSUNAT\b|\bS\.A\.C\./u],
  // Its tax office (DIAN) too. A name ending in an accented letter needs a letter lookahead: \b is ASCII's.
  ['CO', /\+57\b|\bbogot[áa](?!\p{L})|\bmedell[íi]n\b|\bDIAN\b/iu],
  // Its company forms ("Sdn Bhd", "S/B", a listed "Bhd"), its states and towns, which addresses name instead of the
  // country.
  [
    'MY',
    new RegExp(
      '\\b(?:malaysia|malaisie|malaysien|maleisië|malasia)(?!\\p{L})|\\+60\\b|\\bSdn\\.? ?Bhd\\b|\\bBerhad\\b' +
        '|(?<=\\p{L}\\.?\\)? )Bhd\\b|\\p{L}{2,}\\.? S\\/B\\b' +
        '|\\b(?:kuala lumpur|selangor|johor|pulau pinang|penang|negeri sembilan|melaka|pahang|terengganu|kelantan|kedah|perlis|perak' +
        '|sabah|sarawak|putrajaya|labuan' +
        // Its larger towns, and its own abbreviations of street and estate ("Jln", "Tmn", "Lrg"), for addresses whose
        // state a scan lost.
        '|shah alam|petaling jaya|subang jaya|johor bahru|ipoh|seremban|kajang|cheras|puchong|kota kinabalu|kuching' +
        '|jln|tmn|lrg|jalan|taman)\\b' +
        // A GST registration number of twelve digits (other countries' GST numbers have other shapes).
        '|\\bG[S5]T\\b[^\\n\\d]{0,14}\\d{12}(?!\\d)',
      'iu',
    ),
  ],
  ['IN', /\b(?:india|inde|indien)\b|\+91\b|\bGSTIN\b|\bPvt\.? Ltd\b/iu],
  // Its company form written "(Pty) Ltd" (Australia's has no brackets), its largest cities, its municipalities'
  // names and its postal "Private Bag X…".
  [
    'ZA',
    /\b(?:south africa|suid-afrika|afrique du sud|südafrika|zuid-afrika|sudáfrica|sudafrica)\b|\+27\b|\(Pty\) Ltd\b|\b(?:johannesburg|cape town|kaapstad|durban|pretoria|sandton|gqeberha)\b|\bprivate bag x\d|\b(?:local|metropolitan) municipality\b|\bmunisipaliteit\b/iu,
  ],
  // Kenya by its cities, its tax authority (KRA) and its mobile money (M-PESA).
  ['KE', /\b(?:kenya|nairobi|mombasa|kisumu|nakuru|eldoret)\b|\+254\b|\bKRA\b|\bM-?PESA\b/iu],
  // The Philippines by its cities and, in capitals, its tax bureau (BIR).
  ['PH', /\b(?:philippines|pilipinas|manila|makati|quezon city|cebu|davao|taguig|pasig)\b|\+63\b/iu],
  ['PH', /\bBIR\b/u],
  ['PK', /\b(?:pakistan)\b|\+92\b/iu],
  ['LK', /\bsri lanka\b|\+94\b/iu],
  ['NP', /\b(?:nepal|népal)\b|\+977\b/iu],
  ['SE', /\b(?:sweden|sverige|schweden|su[èe]de|zweden|suecia|svezia)\b|\+46\b|\bmoms\b/iu],
  ['NO', /\b(?:norway|norge|norwegen|norv[èe]ge|noorwegen|noruega|norvegia)\b|\+47\b|\bmva\b/iu],
  ['DK', /\b(?:denmark|danmark|dänemark|danemark|denemarken|dinamarca|danimarca)\b|\+45\b|\bcvr\b/iu],
  ['IS', /(?<!\p{L})(?:iceland|[íi]sland|islande|ijsland|islandia|islanda)\b|\+354\b/iu],
  ['JP', /\b(?:japan|japon|japón|giappone)\b|\+81\b/iu],
  ['CN', /\b(?:china|chine|cina)\b|\+86\b/iu],
  ['CH', /\b(?:switzerland|schweiz|suisse|svizzera|zwitserland|suiza)\b|\+41\b/iu],
  ['US', /\b(?:united states|usa|u\.s\.a\.)\b/iu],
  // A state's code and a ZIP code, as every US address ends ("Dallas, TX 75266-0214"); capitals only.
  [
    'US',
    /\b(?:AL|AK|AZ|AR|CA|CO|CT|DE|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY|DC) \d{5}(?:-\d{4})?\b/u,
  ],
];

/** The currency of each country above, for symbols those countries share. */
const CURRENCY: Readonly<Record<string, string>> = {
  AU: 'AUD',
  CA: 'CAD',
  NZ: 'NZD',
  SG: 'SGD',
  HK: 'HKD',
  MX: 'MXN',
  AR: 'ARS',
  CL: 'CLP',
  UY: 'UYU',
  CO: 'COP',
  PE: 'PEN',
  MY: 'MYR',
  IN: 'INR',
  ZA: 'ZAR',
  KE: 'KES',
  PH: 'PHP',
  PK: 'PKR',
  LK: 'LKR',
  NP: 'NPR',
  SE: 'SEK',
  NO: 'NOK',
  DK: 'DKK',
  IS: 'ISK',
  JP: 'JPY',
  CN: 'CNY',
  CH: 'CHF',
  US: 'USD',
};

/** Every country the text names, in the order they first appear in it. */
export function documentCountries(text: string): string[] {
  // The letterhead's and the address's country come before one a line item mentions.
  const found = SIGNS.map(([country, sign]) => ({ country, at: text.search(sign) })).filter(({ at }) => at >= 0);
  const countries = [...new Set(found.sort((a, b) => a.at - b.at).map(({ country }) => country))];
  // A "RUT" in a Uruguayan text is Uruguay's, not Chile's.
  return countries.includes('UY') && !/\+56\b/u.test(text) ? countries.filter((c) => c !== 'CL') : countries;
}

/** The currency a country uses, when it is one this module knows. */
export function currencyOfCountry(country: string): string | null {
  return CURRENCY[country] ?? null;
}
