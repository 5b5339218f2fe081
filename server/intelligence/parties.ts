/** Who sent a document and to whom: letterhead, return-address line, legal forms, address blocks, closings. */

import { cellEndAt } from './columns.ts';
import { withLettersForDigits } from './ocr-letters.ts';
import { evidence, L, latin, scan, WORD_END, WORD_START, type Doc } from './text.ts';

export interface PartyPick {
  name: string;
  confidence: number;
  evidence: string;
}
export interface Parties {
  sender: PartyPick | null;
  buyer: PartyPick | null;
}

/** "SA" and "NV" before a postcode are a state ("Exampleton SA 5999", "Las Vegas NV 89101"), not a legal form. */
const LEGAL_FORM =
  '(?:GmbH(?: ?& ?Co\\.? ?(?:KG|OHG|KGaA))?|gGmbH|mbH|AG(?: ?& ?Co\\.? ?(?:KG|OHG|KGaA))?|KGaA|KG(?! ?\\d)|OHG|oHG|GbR|PartG(?:mbB)?|e\\. ?K\\.|e\\. ?Kfm\\.|e\\. ?V\\.|eG|UG(?: \\(haftungsbeschränkt\\))?|SE|VVaG|a\\. ?G\\.|Ltd\\.?|Limited|Lt[ée]e|Limit[ée]e|inc\\.|LLC|L\\.L\\.C\\.|LLP|Inc\\.?|Incorporated|Corp\\.?|Corporation|plc|PLC|Co\\.|S\\.A\\.(?: (?:de|DE) C\\.V\\.)?|S\\. (?:de|DE) R\\.L\\.(?: (?:de|DE) C\\.V\\.)?|SA(?! \\d{4})|SAS|S\\.A\\.S\\.|S\\.R\\.L\\.|S\\.P\\.A\\.|S\\.N\\.C\\.|SARL|S\\.à r\\.l\\.|S\\.r\\.l\\.|S\\.p\\.A\\.|B\\.V\\.|N\\.V\\.|Pty\\.? Ltd\\.?|\\(Pty\\) Ltd\\.?|\\(PTY\\) LTD\\.?|GesmbH|Ges\\.m\\.b\\.H\\.|S(?:dn|DN)\\.? ?B(?:hd|HD)\\.?|LTD\\.?|LIMITED|INC\\.?|CORP\\.?|P(?:TE|VT|TY)\\.? LTD\\.?|GMBH|B(?:hd|HD)\\.?|S/B|Pte\\.? Ltd\\.?|Pvt\\.? Ltd\\.?|S\\.L\\.(?:U\\.)?|S\\.A\\.U\\.|SRL|Srl|Sp\\. z ?o\\.o\\.|BVBA|BV|NV(?! \\d{5})|VOF|SPRL|SNC|EURL|SASU|S\\.a\\.s\\.|S\\.n\\.c\\.|Sagl|SAGL|S[àa]rl|S[ÀA]RL|P\\.C\\.|PLLC|S\\.A\\.C\\.|E\\.I\\.R\\.L\\.|S\\.A\\.A\\.)';
/** A capitalised word of a company name, or a word that joins them in the six languages ("Roux et Fils"). */
const NAME_WORD =
  "(?:[\\p{Lu}\\d][\\p{L}\\d&.'’+]*|\\(\\p{Lu}[\\p{L} ]{0,20}\\)|&|\\+|und|and|of|für|der|die|des|de|von|van|zu|am|im|an der|et|du|en|het|y|del|e|di|della)";
/** A legal form's letters before a dash and digits are a code, not a form ("Hoja SE-42017", "NV-2210"). */
const NOT_A_CODE = '(?!-\\d)';
/** A French company written form first ("SAS EXEMPLE DISTRIBUTION", "SARL Dupont & Fils"), at the head of its line. */
const FORM_FIRST = new RegExp(
  `^(?:SAS|SARL|SASU|EURL|SNC|SCI|SELARL|SA)[ ](${NAME_WORD}(?: ${NAME_WORD}){0,5})(?=$|[ ,·|-]{1,3}(?:au capital|capital|rcs|siret|siren|\\d))`,
  'u',
);
/** An Italian partnership's partner named after its form: "S.n.c. di Rossi Mario & C.", part of the legal name. */
const PARTNER_AFTER_FORM = "(?: di (?:\\p{Lu}[\\p{L}'’]+ ){1,3}& ?C\\.(?!\\p{L}))?";
/** Capitalised words ending in a legal form: "Stadtwerke München GmbH", "Acme Widgets Ltd". */
const NAME_WITH_FORM = new RegExp(
  `(?<![\\p{L}\\p{N}])(${NAME_WORD}(?:[ -]${NAME_WORD}){0,6})[ ,-]+${LEGAL_FORM}(?![\\p{L}\\p{N}])${NOT_A_CODE}${PARTNER_AFTER_FORM}`,
  'u',
);
const HAS_LEGAL_FORM = new RegExp(`(?<![${L}])${LEGAL_FORM}${WORD_END}${NOT_A_CODE}`);
const LEGAL_FORM_GLOBAL = new RegExp(HAS_LEGAL_FORM.source, 'g');

/** Owners' associations, named after their building's street and number. */
const OWNERS_ASSOCIATION_WORDS = [
  'condominio',
  'comunidad de propietarios',
  'syndicat des copropriétaires',
  'wohnungseigentümergemeinschaft',
  'vve',
];
/** Offices, authorities and associations that write under their own name, at the head of a line. */
const INSTITUTION_WORDS = latin(
  [
    'finanzamt',
    'stadt',
    'landeshauptstadt',
    'gemeinde',
    'markt',
    'landratsamt',
    'bezirksamt',
    'kreisverwaltung',
    'landkreis',
    'jobcenter',
    '(?:bundes)?agentur für arbeit',
    'familienkasse',
    'deutsche rentenversicherung',
    'rentenversicherung',
    '\\p{L}*krankenkasse',
    'aok',
    'barmer',
    'dak',
    'ikk',
    'bkk',
    'amtsgericht',
    'landgericht',
    'polizei\\p{L}*',
    '\\p{L}*zollamt',
    'bundeszentralamt',
    'ard zdf deutschlandradio',
    'beitragsservice',
    'stadtwerke',
    '\\p{L}*sparkasse',
    'volksbank',
    'raiffeisenbank',
    '\\p{L}*bank',
    'universität',
    'hochschule',
    'hm revenue',
    'hmrc',
    'internal revenue service',
    'city of',
    'county of',
    '(?:\\p{L}+ ){1,3}council',
    '(?:\\p{L}+ ){1,3}(?:local |metropolitan |district )?municipality',
    'department of',
    'ministry of',
    'nhs',
    'kanzlei',
    'rechtsanwälte?',
    'rechtsanwaltskanzlei',
    'praxis',
    'dr\\. med\\.',
    'zahnarztpraxis',
    'steuerberater\\p{L}*',
    'hausverwaltung',
    'immobilien\\p{L}*',
    'wohnungsbau\\p{L}*',
    'handwerkskammer',
    'industrie- und handelskammer',
    'ihk',
    'kfz-zulassungsstelle',
    'bürgeramt',
    'standesamt',
    'ordnungsamt',
    // Municipalities and owners' associations in the other languages.
    'gemeente',
    'mairie',
    'ville de',
    'commune de',
    'comune di',
    'ayuntamiento',
    'municipio',
    ...OWNERS_ASSOCIATION_WORDS,
    // A notary or a lawyer writes under the title before its name.
    'ma[îi]tre',
  ].join('|'),
);
const INSTITUTION = new RegExp(`^(?:${INSTITUTION_WORDS})${WORD_END}`, 'i');

const OWNERS_ASSOCIATION = new RegExp(`^(?:${OWNERS_ASSOCIATION_WORDS.join('|')})\\s`, 'iu');

/** A line that is only an institution's word ("Stadt", "Gemeente .", "Comune di"), OCR's specks after it allowed. */
const INSTITUTION_ONLY = new RegExp(`^(?:${INSTITUTION_WORDS})[\\s.:,;]*$`, 'i');

const SALUTATION = new RegExp(
  `^(?:herrn?|frau|familie|fam\\.|firma|eheleute|mr\\.?|mrs\\.?|ms\\.?|miss|mx\\.?|monsieur|madame|mademoiselle|mme\\.?|mlle\\.?|messieurs|dhr\\.?|mevr\\.?|de heer|mevrouw|sr\\.|sra\\.?|srta\\.?|spett\\.?(?:le|li)|spettabile|egr\\.?|gent\\.?(?:mo|ma)|sig\\.(?:ra)?|señor(?:es|a|ita|\\(es\\)|\\(a\\))?|sres\\.|t\\.a\\.v\\.|ter attentie van|attn\\.?|attention|[àa] l'attention de|c\\.a\\.|all'attenzione di|a la atenci[óo]n de)${WORD_END}`,
  'i',
);
const RECIPIENT_LABEL = new RegExp(
  `^(?:an|to|bill(?:ed)? to|invoice to|sold to|ship(?:ped)? to|deliver(?:y)? to|rechnungsempfänger(?:in)?|rechnungsadresse|rechnungsanschrift|lieferadresse|lieferanschrift|empfänger(?:in)?|kunde|customer|client|recipient|addressee|auftraggeber(?:in)?|versicherungsnehmer(?:in)?|policyholder|arbeitnehmer(?:in)?|employee|mieter(?:in)?|tenant|kontoinhaber(?:in)?|account holder|destinataire|receptor|adquir(?:i)?ente|comprador|acquirente|acheteur|koper|käufer(?:in)?|buyer|purchaser|cessionario(?: committente)?|factur[ée] à|adresse de facturation|livr[ée] à|aan|factuuradres|klant|afleveradres|facturar a|facturado a|destinatario|cliente|dirección de facturación|fatturare a|intestatario)${WORD_END}\\s*:?\\s*`,
  'i',
);
const SENDER_LABEL = new RegExp(
  `^(?:(?:if undelivered,? )?return to|absender(?:in)?|von|from|aussteller|rechnungssteller|verkäufer|seller|supplier|lieferant|vermieter(?:in)?|landlord|arbeitgeber(?:in)?|employer|versicherer|insurer|issued by|emisor|[ée]metteur|vendeur|fournisseur|leverancier|proveedor|fornitore|cedente)${WORD_END}\\s*:\\s*`,
  'i',
);
/** The end of a route under its start: "To:", "Nach:", "À :", "Naar:", "Hasta:", "A:". */
const ROUTE_END = /^(?:to|nach|bis|[àa]|vers|naar|tot|hasta|do)\s*:/iu;
/** The bank's name in the payment details: the sender's bank, never the sender. */
const BANK_NAME_LABEL =
  /^(?:bank(?:'s)? name|name of (?:the )?bank|bank|banca|banque|banco|bankverbindung|kreditinstitut|geldinstitut|bankinstitut)\s*:/iu;
const GENERAL_PARTNER = /(?:verwaltungs|beteiligungs|komplementär|management)-?\s?GmbH/iu;
const BANK_WORD = /(?<!\p{L})(?:\p{L}*bank|sparkasse|banque|banca|banco|kreditinstitut)(?!\p{L})/iu;
const BANK_DATA =
  /(?<!\p{L})(?:iban|bic|swift|blz|bankleitzahl|konto(?:nummer|-?nr\.?)?|sort code|account no)(?!\p{L})/iu;
/** "for Example Traders" over "Authorised Signatory": the issuer signing its own invoice (common in India and the UK). */
const SIGNED_FOR = /^for\s+(\S.*?)\s*[|:]?\s*$/iu;
const SIGNATORY = /^(?:authori[sz]ed signatory|proprietor|partner|director|signature)\b/iu;
/** A form's "name of the company" field: at the head of the page, the issuer's own (a recipient's is labelled as such). */
const COMPANY_NAME_LABEL = new RegExp(
  `^(?:raz[óo]n social|denominaci[óo]n(?: social)?|ragione sociale|denominazione(?: sociale)?|raison sociale|d[ée]nomination(?: sociale)?|company name|business name|firmenname|firmenbezeichnung|bedrijfsnaam|handelsnaam|statutaire naam)${WORD_END}\\s*:\\s*`,
  'i',
);
const CLOSING =
  /^(?:mit )?(?:freundlichen|besten|herzlichen|viele|beste|liebe|freundliche) grü(?:ß|ss)en?|^(?:kind|best|warm|with kind) regards|^(?:yours )?(?:sincerely|faithfully|truly)|^regards|^hochachtungsvoll/iu;

/** A town line: postcode then town (Europe), a UK postcode, a US state and ZIP, an Australian state and postcode. */
const POSTCODE_LINE =
  /^(?:[A-Z]{1,2}[- ])?\d{4,5} \p{Lu}[\p{L} .\-()/]*$|\b[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$|\b\p{Lu}[\p{L} .]+,? [A-Z]{2} \d{5}(?:-\d{4})?$|\b\p{Lu}[\p{L} .]+,? (?:NSW|VIC|QLD|WA|SA|TAS|ACT|NT) \d{4}$/u;
const POSTCODE_SEGMENT = /^(?:[A-Z]{1,2}[- ])?\d{4,5} \p{Lu}|\b[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}\b|\b[A-Z]{2} \d{5}\b/u;
const STREET =
  /^[\p{L}][\p{L}.'-]*(?: [\p{L}][\p{L}.'-]*){0,4} ?\d{1,4} ?[a-zA-Z]?(?: ?[-–/] ?\d{1,4}[a-z]?)?$|^\d{1,4}(?: ?(?:bis|ter))?,? (?:rue|avenue|av\.|boulevard|bd|quai|place|chemin|allée|impasse|route|cours|square|passage) [\p{L} .'-]+$|^c\/ ?\p{L}[\p{L} .'-]+,? \d{1,4}|^\d{1,5}[a-z]? [\p{L} .'-]+(?:street|st\.?|road|rd\.?|avenue|ave\.?|lane|ln\.?|drive|dr\.?|way|boulevard|blvd\.?|close|court|ct\.?|place|pl\.?|square|sq\.?|terrace|crescent|row|park|gardens)$|^(?:postfach|p\.? ?o\.? box) ?\d+/iu;
/**
 * A street's name without its number, as a line split at its commas leaves it ("Viale Roma, 21", "Rue de la Paix,
 * 12", "Calle Mayor, 5"): the Romance languages put the kind of street first, German and Dutch last.
 */
const STREET_NAME =
  /^(?:via|viale|piazza|piazzale|corso|largo|vicolo|strada|località|frazione|rue|avenue|boulevard|bd|chemin|allée|impasse|place|quai|za|zi|zac|zone|parc d'activités?|lieu-dit|lotissement|calle|avenida|avda\.?|plaza|paseo|carrer|camino|ronda|travessera|rua|polígono|pol\. ind\.?)\.? (?:\p{L}|\d)|^c\/ ?\p{L}|^\p{L}+(?:straße|strasse|str\.|straat|laan|plein|gracht|kade)$/iu;
/**
 * Between an address's parts: a middle dot (which OCR may read as a spaced "+"), a bar, a dash, a comma. Not a
 * spaced colon: French sets one after every label ("Chantier : 12 rue …").
 */
const SEPARATORS = / *[·•|] *| +[-–+] +|, +| *; +/;
const NOT_A_NAME = new RegExp(
  `${WORD_START}(?:rechnung|invoice|gutschrift|credit note|quittung|receipt|angebot|quotation|vertrag|agreement|kontoauszug|statement|bescheid|mahnung|reminder|seite|page|datum|date|betreff|subject|sehr geehrte|dear|tel|telefon|fax|e-?mail|www|ust|iban|bic|kassenbon|bon|kasse|beleg|lohnabrechnung|gehaltsabrechnung|payslip|police|versicherungsschein|facture|factuur|factura|fattura|avoir|quittance|recibo|ricevuta|betalingsbewijs|betaalbewijs|amount due|pay by|balance due|amount enclosed|remit to|kwitantie|kassabon|creditnota|zahlungsbestätigung|payment confirmation|justificante|scontrino|rectificativa|abono|relev[ée]|betreft|objet|oggetto|asunto|domicilio|direcci[óo]n|indirizzo|adresse|anschrift|litige|m[ée]diat\\p{L}*|mediaci[óo]n|ombudsman|schlichtungsstelle|geschillencommissie|conciliazione|original|originale|duplicate|duplicado|duplicata|duplicato|copy|copia|copie|kopie|triplicado)${WORD_END}`,
  'i',
);
const GENERIC_TEAM =
  /^[\p{L} -]*(?:service|team|kundendienst|support|betreuung|beratung|sachbearbeitung|abteilung|buchhaltung|verwaltung|care|department)(?:[- ]?team)?$/iu;
/** Register and bank details are printed by the issuer only, usually in the footer next to its name. */
const LEGAL_DATA =
  /\b(?:HRB|HRA|Amtsgericht|Registergericht|Handelsregister|Geschäftsführ\p{L}*|Vorstand|Sitz(?: der Gesellschaft)?|USt-?Id\p{L}*|Steuer-?Nr|Steuernummer|IBAN|BIC|Bankverbindung|Company (?:No|Number|Reg)|Registered (?:office|in)|VAT (?:No|Reg)|Directors?|GST (?:No|Reg|ID)|Co\.? ?Reg|SIRE[NT]|RCS|TVA|N° TVA|KvK|BTW|CIF|NIF|P\.? ?IVA|Partita IVA|Codice fiscale|REA|Capital social|Capitale sociale|MWST|UID|CHE-\d{3}|ABN|ACN|RFC|NIT|CUIT|RUC|Zetel|Ondernemingsn\p{L}*|RPR|Si[èe]ge social|Sede legale|Domicilio social)\b/iu;
const DOMAIN =
  /(?:www\.|https?:\/\/(?:www\.)?|(?<![\w.+-])[\w.+-]{1,64}@)([a-z0-9][a-z0-9-]{1,40})\.(?:co\.uk|com|de|at|ch|eu|net|org|info|io|uk|fr|nl|it|es|biz)\b/giu;
const MAIL_PROVIDERS = new Set([
  'gmail',
  'googlemail',
  'gmx',
  'web',
  't-online',
  'outlook',
  'hotmail',
  'yahoo',
  'icloud',
  'me',
  'posteo',
  'mailbox',
  'aol',
  'freenet',
  'live',
  'protonmail',
  'proton',
  'example',
]);
const LEADING_FILLER =
  /^(?:(?:die|der|das|the|von|vom|bei|mit|an|für|ihre?|ihren|your|our|unsere?|team|wir|we|dank|vielen|thank|thanks|sehr|geehrte[rn]?|dear)\s+)+/iu;

interface Candidate {
  name: string;
  confidence: number;
  line: number;
}

/** A line that opens a recipient's address: "Herrn …", "Bill to:", "Kunde:". */
export function opensRecipientBlock(line: string): boolean {
  return SALUTATION.test(line) || RECIPIENT_LABEL.test(line);
}

/** "12345 Town", "London SW1A 1AA", "Springfield, IL 62704": the last line of a postal address. */
export function isPostcodeLine(line: string): boolean {
  return POSTCODE_LINE.test(line);
}

/** Register, tax and bank details: what an issuer's legal block says. */
export function hasLegalData(line: string): boolean {
  return LEGAL_DATA.test(line);
}

/** A contract names its parties after "between" ("Zwischen …", "Entre …"): the word is not part of the name. */
const PARTY_INTRO = /^(?:zwischen|between|entre|tussen|tra|fra)\s+(?:(?:der|dem|den|the|la|le|l'|el|de|il|lo)\s+)?/iu;

/** "Inh. Gerd Beispiel e.K.", "Titolare: …": the owner of the business named above. */
const OWNER_LINE =
  /^(?:inh\.|inhaber(?:in)?|titolare|proprietor|propriétaire|propietari[oa]|eigena(?:ar|resse))[\s:]+\p{Lu}/iu;
/** What introduces the owner of a shop or a brand, at the end of a line or just before the owner's name. */
const OWNER_INTRO =
  /(?<!\p{L})(?:(?:owned|operated|managed|run) by|a (?:division|subsidiary|member) of|dimiliki oleh|betrieben von|inh\.|inhaber(?:in)?|proprietor|exploit[ée] par|administr[ée] par|gestionado por|administrad[oa] por|gestito da|amministrat[oa] da|titolare|geëxploiteerd door|beheerd door)(?!\p{L})[\s:]*$/iu;

/**
 * OCR reads the "D" of "Sdn" as "O", the "B" of "Bhd" as "8" or "D" and the "S" of "S/B" as "5": a company form, not a
 * word of the name.
 */
const MISREAD_FORMS: ReadonlyArray<readonly [RegExp, string]> = [
  // A text layer that set a space before a comma or a full stop ("BUILDERS , INC ."): the name's own punctuation.
  [/(?<=[\p{L}.]) ([.,])(?= |$)/gmu, '$1'],
  // A speck read after the comma before a legal form ("Beispiel Hermanos,. S.L."): only the comma was printed.
  [/(?<=\p{L}),[.,'’] (?=\p{Lu}[\p{L}.]{0,5}$)/gmu, ', '],
  [/(?<![\p{L}\p{N}])(SDN\.? ?)[8D](HD\b)/gu, '$1B$2'],
  [/(?<![\p{L}\p{N}])(?:SON|S0N|5DN)(\.? ?)(BHD\b)/gu, 'SDN$1$2'],
  [/(?<![\p{L}\p{N}])(?:Son|5dn)(\.? ?)(Bhd\b)/gu, 'Sdn$1$2'],
  [/(?<=\p{Lu}{2,}\.? )5\/[8B0D](?![\p{L}\p{N}])/gu, 'S/B'],
  // One letter off in a three-letter word right before "Bhd" ("SQN BHD", "SDM BHD", "Sdm Bhd"): nothing else goes there.
  [/(?<![\p{L}\p{N}])(?:S[\p{L}\d]N|S[DO0][\p{L}\d]|[\p{L}\d]DN)(\.? ?)(BHD\b)/gu, 'SDN$1$2'],
  [/(?<![\p{L}\p{N}])(?:S[\p{L}\d]n|S[dco0][\p{L}\d]|[\p{L}\d]dn)(\.? ?)(Bhd\b)/gu, 'Sdn$1$2'],
  // And "BHD" itself after "Sdn": "SDN BKD", "SDN. 8HD".
  [/(?<![\p{L}\p{N}])(SDN\.? ?)(?:B[\p{L}\d]D|[\p{L}\d]HD|BH[\p{L}\d])(?![\p{L}\p{N}])/gu, '$1BHD'],
];

function withCompanyForms(text: string): string {
  return MISREAD_FORMS.reduce((result, [misread, form]) => result.replace(misread, form), text);
}

/**
 * "Sdn Bhd", "(Branch) Sdn Bhd" or "Co. (M) Sdn Bhd" alone names no one, and "& Sons Ltd" is the end of a name: a
 * merchant's name too long for the till roll's width goes on before it, on the same line or the line above (a gap
 * in the print leaves a blank line between).
 */
function withNameBefore(name: string, before: string, above: string): string {
  // "1840 SE Hawthorne Blvd": a house number and a direction, not the tail of a company's name.
  if ((ownLetters(name) >= 2 && !continued(name)) || /^\d/u.test(name)) return name;
  const nameLike = (text: string): boolean => text.length <= 50 && /^\p{L}/u.test(text) && !/[\d:;|·]/u.test(text);
  const head = before.trim();
  const joined = head && nameLike(head) ? `${head} ${name}` : name;
  const lineAbove = above.replace(LEADING_MARKS, '').trim();
  if ((ownLetters(joined) >= 2 && !continued(joined)) || !nameLike(lineAbove)) return joined;
  return `${lineAbove} ${joined}`;
}

/**
 * A one-word name with its legal form under the page's first line, when that line is a short name of its own
 * ("VOGT & PARTNER" over "Immobilienverwaltung GmbH", a lower-case logo word over "Informatik AG"): the two lines are
 * one name set over two. Not when the top line only repeats the word (a logo "ACME" over "Acme GmbH"). The caller
 * passes the first line only when the name's line follows it.
 */
function withLogoLine(name: string, firstLine: string, elsewhere: string): string {
  const top = firstLine.trim();
  const own = name
    .replace(LEGAL_FORM_GLOBAL, ' ')
    .replace(/[\s,.]+$/u, '')
    .trim();
  // Several words under the top line ("BRAMLEY" over "PAPER SUPPLY LTD"): one name only when the page prints it
  // whole elsewhere (its footer, its payment details).
  const oneWord = /^\p{L}[\p{L}'’-]+$/u.test(own);
  const printedWhole = (): boolean => {
    const whole = normalise(`${top} ${own}`);
    return whole.length >= 8 && elsewhere.includes(whole);
  };
  if (!/^\p{L}[\p{L}'’ &-]+$/u.test(own) || top.length > 30 || /[\d:;|·@]/u.test(top)) return name;
  if (top.split(/\s+/).filter((word) => word !== '&' && word !== '+').length > 3) return name;
  if (top.toLowerCase().includes(own.toLowerCase())) return name;
  if (!oneWord && !printedWhole()) return name;
  return `${top} ${name}`;
}

/**
 * A name that starts with a joining word ("& Tea Leaf Sdn Bhd") began on the line above; so did one that starts with a
 * lower-case particle ("de Inversión S.A." under "BANCO EJEMPLO", "di Rossi Marco & C. S.n.c."). A lone letter
 * ("K Foods Ltd") may be an initial.
 */
const JOINING_WORD = /^(?:&|\+|and|und|et)\s/iu;
const LOWER_PARTICLE = /^(?:de|di|du|del|della|des|van|von|der)\s/u;
const continued = (name: string): boolean => JOINING_WORD.test(name) || LOWER_PARTICLE.test(name);

/** Letters of a name that are neither a legal form nor a bracketed branch: "(M)" and "{M)" (a misread bracket) count none. */
function ownLetters(name: string): number {
  return name
    .replace(LEGAL_FORM_GLOBAL, ' ')
    .replace(/\bco\.(?=\s|$)/giu, ' ')
    .replace(/[({][^)}]*[)}]/gu, ' ')
    .replace(/[^\p{L}]/gu, '').length;
}

/** Lines under a receipt's merchant beyond which a company name is someone else's. */
const FAR_BELOW_MERCHANT = 6;

/** What OCR puts before a line's first letter (a bar, a bullet, a speck) or after its last; not an apostrophe ("'t Hoekje"). */
const LEADING_MARKS = /^[\s:,;.\-–|•*©!"_]+/u;
const TRAILING_MARKS = /[\s:,;\-–|_]+$/u;

/** Partners' names listed with commas ("Harwell, Quillon & Vesper LLP", "Dupont, Martin et Associés"): one name. */
const PARTNER_LIST = /^\p{Lu}[\p{L}'’-]+(?:, \p{Lu}[\p{L}'’-]+)+,? (?:&|and|und|et|y|e) \p{Lu}[\p{L}'’-]+/u;

function cleanName(raw: string): string {
  const text = withCompanyForms(raw).replace(LEADING_MARKS, '');
  const partners = PARTNER_LIST.exec(text)?.[0] ?? '';
  // The partners' commas are no separators: split what follows them only.
  const first = partners + (text.slice(partners.length).split(SEPARATORS)[0] ?? '');
  let name = first.replace(PARTY_INTRO, '');
  // "… is a trading name of Example Insurance Ltd": the sentence's joining word is no part of the name.
  name = name.replace(/^(?:of|and|und|et|by|von der|of the)\s+(?=\p{Lu})/u, '');
  name = name.replace(SENDER_LABEL, '').replace(LEADING_MARKS, '').replace(TRAILING_MARKS, '').replace(/\s+/g, ' ');
  return name.length > 80 ? name.slice(0, 80).trim() : name;
}

/** Short words that join a name's parts ("Roux et Fils", "Casa de la Sierra"): not OCR's specks. */
const NAME_PARTICLE = /^(?:de|di|da|du|do|of|et|en|la|le|el|il|lo|y|e|&|\+)$/u;

function plausibleName(name: string): boolean {
  if (name.length < 2 || name.length > 80 || !/\p{L}{2,}/u.test(name) || /@|www\.|https?:/iu.test(name)) return false;
  // Marks no name is spelt with (an exclamation mark only after a word, as in a brand): OCR of a logo, a stamp or a
  // line of the items.
  if (/[?<>~^_=|\\¥€£$]|(?:^|\s)!/u.test(name)) return false;
  if (NOT_A_NAME.test(name) && !HAS_LEGAL_FORM.test(name)) return false;
  // "Sitz Beispielstadt, AG Beispielstadt HRB …": the legal block's registered seat and court, not a company.
  if (LEGAL_DATA.exec(name)?.index === 0) return false;
  // Two or three lower-case letters alone are a logo's monogram ("lf · studio"), not the name it stands for.
  if (/^\p{Ll}{1,3}$/u.test(name)) return false;
  // A US town, state and ZIP ("Exampleville, ID 83799") is no name.
  if (/^[\p{L} .'-]+, [A-Z]{2} \d{5}(?:-\d{4})?$/u.test(name)) return false;
  // OCR of a picture: many words of one or two letters ("a ARS SO Ep Ea PES LINE a SAS SA").
  const words = name
    .replace(LEGAL_FORM_GLOBAL, ' ')
    .split(/\s+/u)
    .filter((word) => /\p{L}/u.test(word) && !NAME_PARTICLE.test(word));
  if (words.length >= 5 && words.filter((word) => word.replace(/\P{L}/gu, '').length <= 2).length * 2 > words.length)
    return false;
  // Dates, amounts and street lines are not names; an owners' association is named after its street.
  return (
    !/\d{1,2}\.\d{1,2}\.\d{2,4}|\d+[.,]\d{2}\b/.test(name) &&
    !(STREET.test(name) && !OWNERS_ASSOCIATION.test(name)) &&
    !(STREET_NAME.test(name) && !HAS_LEGAL_FORM.test(name)) &&
    !POSTCODE_LINE.test(name)
  );
}

/** The lines at the top of a page that a letterhead takes. */
const LETTERHEAD_LINES = 6;

/** Whether a name is the one printed at the top of the page, in the letterhead. */
function namesLetterhead(lines: readonly string[], name: string): boolean {
  const key = normalise(name);
  return key.length >= 3 && lines.slice(0, LETTERHEAD_LINES).some((line) => normalise(line) === key);
}

/** Lines that belong to a recipient address block (after "An:", "Herrn …", or the line under a return address). */
function recipientBlocks(lines: readonly string[]): { lines: Set<number>; name: Candidate | null } {
  const blocked = new Set<number>();
  let name: Candidate | null = null;
  const limit = Math.min(lines.length, 40);
  for (let i = 0; i < limit; i++) {
    const line = lines[i] ?? '';
    let start = -1,
      confidence = 0,
      nameLine = -1,
      nameText = '';
    const label = RECIPIENT_LABEL.exec(line);
    const shortLabel = label && /^(?:an|to|aan)$/iu.test(label[0].trim()) && !label[0].includes(':');
    const labelFits =
      label && (!shortLabel || (/^\p{Lu}/u.test(line.slice(label[0].length)) && line.split(' ').length <= 6));
    if (label && labelFits && (label[0].includes(':') || label[0].length === line.length || shortLabel)) {
      start = i;
      confidence = 0.7;
      const rest = line.slice(label[0].length).trim();
      if (rest) {
        nameLine = i;
        nameText = rest;
      } else {
        nameLine = i + 1;
        nameText = lines[i + 1] ?? '';
      }
    } else if (SALUTATION.test(line) && i < 30) {
      start = i;
      // "Señores:" alone heads the block as a label does.
      confidence = /^[^:]+:$/u.test(line.trim()) ? 0.7 : 0.65;
      // "Señores:" over the name: the colon is no part of one.
      const rest = line
        .replace(SALUTATION, '')
        .replace(/^[\s:,.]+/u, '')
        .trim();
      if (rest) {
        nameLine = i;
        nameText = line;
      } else {
        nameLine = i + 1;
        nameText = lines[i + 1] ?? '';
      }
    } else if (i < 20 && lines[i + 1] && isReturnAddress(line)) {
      start = i + 1;
      confidence = 0.6;
      nameLine = i + 1;
      nameText = lines[i + 1] ?? '';
      if (SALUTATION.test(nameText) && !nameText.replace(SALUTATION, '').trim()) {
        nameLine = i + 2;
        nameText = lines[i + 2] ?? '';
      }
    }
    if (start < 0) continue;
    let end = start,
      addressed = false;
    for (let j = start; j < Math.min(lines.length, start + 7); j++) {
      end = j;
      const blockLine = lines[j] ?? '';
      if (STREET.test(blockLine)) addressed = true;
      if (POSTCODE_LINE.test(blockLine)) {
        addressed = true;
        break;
      }
      if (j > start && !blockLine.trim()) break;
    }
    // Without an address under it, "Frau …" or the line under a return address is not a recipient block.
    if (confidence < 0.7 && !addressed) continue;
    const cleaned = cleanName(nameText.replace(SALUTATION, '').replace(/^(?:z\.? ?hd\.?|attn\.?|c\/o)\s*/iu, ''));
    if (!plausibleName(cleaned)) continue;
    // "To: <the letterhead's own name>" on a payment slip at the foot addresses the payee, the sender itself.
    if (start > LETTERHEAD_LINES && namesLetterhead(lines, cleaned)) continue;
    for (let j = start; j <= end; j++) blocked.add(j);
    name ??= { name: cleaned, confidence, line: nameLine };
    i = end;
  }
  if (!name) {
    // Two unmarked name-and-address blocks at the top: the letterhead, then the window envelope's recipient.
    const blocks = addressBlocks(lines).filter((b) => !blocked.has(b));
    const second = blocks[1];
    if (second !== undefined) {
      const cleaned = cleanName(lines[second] ?? '');
      if (plausibleName(cleaned)) {
        name = { name: cleaned, confidence: 0.5, line: second };
        for (let j = second; j <= second + 2; j++) blocked.add(j);
      }
    }
  }
  return { lines: blocked, name };
}

/** First lines of "name / street / postcode town" blocks in the top of the page. */
function addressBlocks(lines: readonly string[]): number[] {
  const starts: number[] = [];
  for (let i = 0; i < Math.min(lines.length, 20); i++) {
    const line = lines[i] ?? '';
    if (
      !line ||
      /\d/.test(line) ||
      line.length > 50 ||
      !STREET.test(lines[i + 1] ?? '') ||
      !POSTCODE_LINE.test(lines[i + 2] ?? '')
    )
      continue;
    starts.push(i);
    i += 2;
  }
  return starts;
}

/** An English street's name ending in its kind of street. */
const STREET_WITHOUT_NUMBER =
  /^\p{Lu}[\p{L}'’.-]*(?: \p{Lu}[\p{L}'’.-]*){0,3} (?:street|road|lane|avenue|drive|boulevard|crescent|terrace|close)$/iu;

const PAGE_COUNT = /^(?:page|seite|pagina|página|blad|pag\.|p\.)\s*\d/iu;

/** A middle dot or a bar between parts, or the spaced "+" OCR makes of the dot: parts set apart, not listed. */
const SET_APART = /[·•|]| \+ /u;

/** "Stadtwerke München GmbH · Emmy-Noether-Str. 2 · 80992 München": a sender in one line above the window. */
export function isReturnAddress(printed: string): boolean {
  // OCR's speck before the first letter (". Finanzamt Beispielstadt - Postfach …").
  const line = printed.replace(LEADING_MARKS, '');
  if (!SET_APART.test(line) && !/[,–-]/u.test(line)) return false;
  // A bank line ("RIB : Banque Exemple - IBAN … - BIC …") names the account's bank, not the sender's address.
  if (/(?<!\p{L})(?:iban|bic|swift|rib)(?!\p{L})/iu.test(line)) return false;
  const segments = line.split(SEPARATORS).filter(Boolean);
  // "Springfield, IL 62704" is a city line; a return address names someone and where: three parts, or two set apart by "·".
  if (segments.length < 2 || (segments.length === 2 && !SET_APART.test(line))) return false;
  // A sentence cut at its commas is no address ("…, Ouest, 44000 Nantes, inscrite au registre du commerce …").
  if (segments.some((segment) => segment.split(' ').length > 6)) return false;
  const first = segments[0] ?? '';
  // A name starts with a capital ("l'appartamento posto in …" is a clause); a branch or office is the sender's, not
  // its name ("Mill Street Branch, Unit 4, …").
  if (/\d/.test(first) || !/\p{L}{2,}/u.test(first) || !/^\p{Lu}/u.test(first) || BRANCH.test(first)) return false;
  // A street without a house number, as country addresses have them ("Mill Lane, Exampleton, AB1 2CD"), is no name.
  if (STREET_WITHOUT_NUMBER.test(first) || STREET_NAME.test(first)) return false;
  // "Pupil: Jane Example - Year 5 - …": a labelled field, not a name.
  if (/\p{L}\s*:/u.test(first)) return false;
  // "… · page 1/2" is a page count, not a street and its number.
  const places = segments.slice(1).filter((s) => !PAGE_COUNT.test(s));
  // A street has a name of some letters: "C1E" or "D1" in a list of licence classes or models is none.
  return places.some((s) => POSTCODE_SEGMENT.test(s) || (STREET.test(s) && /\p{L}{3}/u.test(s)));
}

const BRANCH = new RegExp(
  `${WORD_START}(?:branch|filiale|zweigstelle|geschäftsstelle|niederlassung|agence|succursale|sucursal|agenzia|vestiging|kantoor)${WORD_END}` +
    // A department heads its organisation's address, which is named elsewhere ("Ufficio Tributi – Piazza …").
    `|^(?:ufficio|servizio|service|servicio|departamento|department|abteilung|referat|sachgebiet|afdeling|dienst)${WORD_END}` +
    // A shop of a chain named by its town ("Winkel Exampledorp", "Magasin de Lyon"): the branch, not the company.
    `|^(?:winkel|magasin|tienda|negozio|punto vendita|filiaal)${WORD_END}`,
  'iu',
);

/** "Kreuzbergstr. 30, 10965 Berlin" on one line. */
function isStreetAndTown(line: string): boolean {
  const segments = line.split(SEPARATORS);
  return segments.length >= 2 && segments.some((s) => STREET.test(s)) && segments.some((s) => POSTCODE_SEGMENT.test(s));
}

function domainName(text: string): string | null {
  DOMAIN.lastIndex = 0;
  for (const m of text.matchAll(DOMAIN)) {
    const label = (m[1] ?? '').toLowerCase();
    if (MAIL_PROVIDERS.has(label) || (m[0].includes('@') && label.length < 3)) continue;
    return label
      .split('-')
      .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
      .join(' ');
  }
  return null;
}

function normalise(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]/g, '');
}

/** What the page's layout tells about the parties (server/intelligence/layout/): zone texts, a receipt's merchant. */
export interface PartyLayout {
  /** Texts in the recipient's address window: never the sender. */
  address: readonly string[];
  /** Texts of the letterhead and the footer's legal block: where the sender writes its name. */
  issuer: readonly string[];
  /** A till receipt's merchant: the name at the top in the largest type (layout/receipt.ts); null on other documents. */
  merchant: { text: string; prominent: boolean } | null;
  /** Each line's columns as the text layer set them apart (columns.ts cellsOf); a name ends where its column does. */
  cells?: ReadonlyArray<readonly string[]>;
}

/**
 * A name cut at the end of its column: the text layer set "EXAMPLE AIRWAYS ONLINE" and a sales office's code, or a
 * name and a web address in the next column, apart; the line as read joins them.
 */
function withinColumn(name: string, line: string, cells: readonly string[] | undefined): string {
  if (!cells || cells.length < 2) return name;
  const start = line.indexOf(name);
  if (start < 0) return name;
  const end = cellEndAt(cells, start);
  return end !== null && start + name.length > end ? name.slice(0, end - start).trim() : name;
}

export function findParties(doc: Doc, layout?: PartyLayout): Parties {
  const { lines } = doc;
  const first = lines.findIndex((line) => line.trim() !== '');
  const legalFormLines = new Set(scan(doc, LEGAL_FORM_GLOBAL).map((m) => m.line));
  const recipients = recipientBlocks(lines);
  const candidates: Candidate[] = [];
  const n = lines.length;
  const footerStart = Math.max(15, n - 15);
  const add = (raw: string, confidence: number, line: number): void => {
    const name = cleanName(withinColumn(raw, lines[line] ?? '', layout?.cells?.[line]));
    if (plausibleName(name)) candidates.push({ name, confidence, line });
  };

  lines.forEach((printed, i) => {
    if (!printed || recipients.lines.has(i)) return;
    const line = withCompanyForms(printed);
    if (RECIPIENT_LABEL.test(line) && line.includes(':')) return;
    const senderLabel = SENDER_LABEL.exec(line);
    if (senderLabel) {
      // "From: Central Station" over "To: Airport": a ride's route, not who wrote the slip.
      if (ROUTE_END.test(lines[nextTextLine(lines, i) ?? -1] ?? '')) return;
      const rest = line.slice(senderLabel[0].length).trim();
      // A till's "Vendeur : ANNA" names the salesperson: one word without a legal form is no company.
      const salesperson = /^\S+$/u.test(rest) && !HAS_LEGAL_FORM.test(rest);
      // In the body, "Vendeur : …" names a party of the deed or the sale a letter is about, not its writer.
      if (!salesperson) add(rest || (lines[i + 1] ?? ''), i < 20 ? 0.85 : 0.6, i);
      return;
    }
    const payee = payeeOf(line);
    if (payee) add(payee, 0.7, i);
    if (BANK_NAME_LABEL.test(line)) return;
    const signedFor = SIGNED_FOR.exec(line);
    if (signedFor?.[1] && SIGNATORY.test(lines[nextTextLine(lines, i) ?? -1] ?? '')) {
      add(signedFor[1], 0.7, i);
      return;
    }
    const companyLabel = i < 15 ? COMPANY_NAME_LABEL.exec(line) : null;
    if (companyLabel) {
      add(line.slice(companyLabel[0].length), 0.8, i);
      return;
    }
    if ((i < 20 || i >= footerStart) && isReturnAddress(line)) add(line, i < 20 ? 0.85 : 0.65, i);
    const withForm = legalFormLines.has(i) || line !== printed ? NAME_WITH_FORM.exec(line) : null;
    const formFirst = withForm ? null : FORM_FIRST.exec(line.trim());
    // Lines below the page's first text line.
    const fromTop = i - Math.max(first, 0);
    if (withForm) {
      let name = withForm[0].replace(LEADING_FILLER, '');
      // In the letterhead the whole line up to the legal form is the name, lower-case words included
      // ("Haftpflicht-Unterstützungs-Kasse kraftfahrender Beamter Deutschlands a. G.").
      const upToForm = line.slice(0, withForm.index + withForm[0].length);
      if (
        i < 5 &&
        withForm.index > 0 &&
        /^\p{Lu}/u.test(line) &&
        !/[,;:·|]/u.test(upToForm) &&
        upToForm.split(' ').length <= 8
      ) {
        name = upToForm;
      }
      const above = previousTextLine(lines, i);
      const start = line.indexOf(name);
      // The partners named before the last two ("HARWELL, " before "QUILLON & VESPER LLP").
      const partnersBefore = /(?:^|\s)((?:\p{Lu}[\p{L}'’-]+, )+)$/u.exec(line.slice(0, Math.max(0, start)))?.[1];
      if (partnersBefore && /^\p{Lu}[\p{L}'’-]+ (?:&|and|und|et|y|e) /u.test(name)) name = partnersBefore + name;
      name = withNameBefore(
        name,
        line.slice(0, start >= 0 ? start : withForm.index),
        above === null ? '' : withCompanyForms(lines[above]!),
      );
      if (above !== null && above === first) {
        // The top line's first column when the text layer set columns apart ("OAKRIDGE" beside "INVOICE").
        const elsewhere = normalise(lines.filter((_, j) => j !== above && j !== i).join(' '));
        name = withLogoLine(name, layout?.cells?.[above]?.[0] ?? lines[above]!, elsewhere);
      }
      const legalData = nearLegalData(lines, i);
      // "Owned by: … Sdn Bhd" under a shop's sign names the company behind it: the sign is the name people know.
      const owner =
        OWNER_INTRO.test(line.slice(0, withForm.index)) ||
        OWNER_LINE.test(line) ||
        (above !== null && OWNER_INTRO.test(lines[above] ?? ''));
      const confidence = (i < 12 ? 0.8 : i >= footerStart ? 0.7 : 0.55) + (legalData ? 0.1 : 0);
      // A bank named in the bank details (beside an IBAN or an account number) is where the sender keeps its account;
      // a bank's own letter names it at the head, away from them.
      const accountBank =
        fromTop >= 3 &&
        BANK_WORD.test(name) &&
        [i - 2, i - 1, i, i + 1, i + 2].some((j) => BANK_DATA.test(lines[j] ?? ''));
      add(name, confidence - (owner ? 0.35 : 0) - (accountBank ? 0.4 : 0), i);
      // "Tankstelle Beispiel" / "Inh. Gerd Beispiel e.K.": the business above its owner's line is the sender.
      if (OWNER_LINE.test(line) && above !== null && !/\d/.test(lines[above]!)) add(lines[above]!, confidence, above);
    } else if (formFirst) {
      // Only at the head of the page or in the legal block: a recipient's company is written the same way.
      const legalData = nearLegalData(lines, i);
      if (fromTop < 5 || legalData) add(formFirst[0], (i < 12 ? 0.75 : 0.7) + (legalData ? 0.1 : 0), i);
    } else if (line.length <= 60 && INSTITUTION.test(line.replace(LEADING_MARKS, '').replace(PARTY_INTRO, ''))) {
      // "Gemeente" over "Exampledorp", as a coat of arms sets them: the institution's word alone names no one.
      const below = lines[nextTextLine(lines, i) ?? -1] ?? '';
      const bare =
        INSTITUTION_ONLY.test(line) &&
        line.split(/\s+/u).filter((w) => /\p{L}/u.test(w)).length <= 2 &&
        /^\p{Lu}[\p{L}'’ -]{2,40}$/u.test(below);
      add(
        // "Exampleton Borough Council Parking Services": the council, not its department.
        bare
          ? `${line.replace(/[\s.:,;]+$/u, '')} ${below}`
          : (/^.*?\b(?:council|municipality)\b/iu.exec(line)?.[0] ?? line),
        i < 12 ? 0.75 : i >= footerStart ? 0.6 : 0.45,
        i,
      );
    }
    if (i < 15 && !/\d/.test(line) && line.length <= 50 && !SALUTATION.test(line)) {
      if (addressFollows(lines, i + 1) || addressAfterProfile(lines, i)) {
        // A slogan between the name and the address ("wonen aan het water"): the name is the line above it.
        const above = previousTextLine(lines, i);
        const underName =
          above !== null &&
          (isSlogan(line) || isTradeList(line)) &&
          !/\d/.test(lines[above]!) &&
          lines[above]!.length <= 50;
        add(underName ? lines[above]! : withOwner(lines, i), 0.6, underName ? above : i);
      }
    }
    if (CLOSING.test(line)) {
      for (let j = i + 1; j <= Math.min(n - 1, i + 3); j++) {
        const closingLine = lines[j] ?? '';
        if (!closingLine) continue;
        const team = /^(?:ihre?|your|das|the)\s+(.+?)(?:[- ]team)?$/iu.exec(closingLine);
        if (team?.[1] && /^(?:ihre?|your)\s/iu.test(closingLine)) {
          if (!GENERIC_TEAM.test(team[1])) add(team[1], 0.65, j);
        } else if (/^(?:ihr|das|the) team (?:von|der|of) (.+)$/iu.test(closingLine)) {
          add(closingLine.replace(/^(?:ihr|das|the) team (?:von|der|of) /iu, ''), 0.65, j);
        } else if (
          !HAS_LEGAL_FORM.test(closingLine) &&
          /^\p{Lu}[\p{L}.'-]+(?: \p{Lu}[\p{L}.'-]+){1,3}$/u.test(closingLine)
        ) {
          add(closingLine, 0.45, j);
        }
      }
    }
  });

  if (first >= 0 && !recipients.lines.has(first)) {
    const line = lines[first] ?? '';
    if (line.length <= 50 && !/\d/.test(line) && !SALUTATION.test(line)) {
      // A letterhead's first line over its profession and specialities, then its address: a person's own letterhead
      // ("Jeanne EXEMPLE" / "Avocate au Barreau de Rennes" / "Droit de la famille" / "12 quai …").
      const addressed = [1, 2, 3].some((k) => !recipients.lines.has(first + k) && addressFollows(lines, first + k));
      // A name over a one-line address whose first part is a house or a site ("Bramblewood Veterinary Practice" /
      // "The Old Barn, Mill Lane, Exampleton"): the name, not that part, is the sender.
      const overReturnAddress = isReturnAddress(lines[first + 1] ?? '') && isNameLine(line);
      // A name set over its first two lines is the letterhead's whole name, above what either line says alone.
      const letterhead = withOwner(lines, first);
      const joined = letterhead !== line.trim();
      add(
        letterhead,
        overReturnAddress ? 0.86 : addressed && (joined || isPersonName(line) || isNameLine(line)) ? 0.7 : 0.4,
        first,
      );
    }
  }
  const domain = domainName(doc.text);
  if (domain) candidates.push({ name: domain, confidence: 0.3, line: -1 });

  let merchantIndex = -1;
  if (layout?.merchant) {
    const line = lines.findIndex((l) => l.includes(layout.merchant!.text));
    // The page's layout may set the first word of a name apart in larger type ("LOTUS" over "LEAF RESTAURANT"): the
    // text line it starts, when that line is a name, is the whole of it.
    const whole = line >= 0 ? lines[line]!.trim() : '';
    const text =
      whole.startsWith(layout.merchant.text) && whole.length <= 50 && !/\d/u.test(whole) ? whole : layout.merchant.text;
    // Below a name with a legal form: a shop sign is often a brand, the legal form names the merchant.
    // Either way above a name guessed from the address under it (0.6), which on a slip is often the shopping centre.
    const before = candidates.length;
    add(text, layout.merchant.prominent ? 0.7 : 0.65, line >= 0 ? line : first);
    if (candidates.length > before) merchantIndex = before;
    // A company further down the slip than its header (a customer's, a supplier's) is not the merchant's own form.
    const merchantLine = line >= 0 ? line : first;
    // Unless it carries the shop's name: then it is the shop's own company ("BRANDNAME" over "Brandname Stores Ltd").
    const merchantKey = normalise(text);
    // Its tax or register number beside it makes it the merchant's own legal name, which the slip prints at its foot
    // ("Beispiel Gastro AG · CHE-123.456.789 MWST"): that name, not the sign, is the one on the books.
    for (const candidate of candidates) {
      if (candidate.line <= merchantLine + FAR_BELOW_MERCHANT || !HAS_LEGAL_FORM.test(candidate.name)) continue;
      if (nearLegalData(lines, candidate.line, 2)) candidate.confidence = Math.max(candidate.confidence, 0.85);
      else if (!(merchantKey.length >= 3 && normalise(candidate.name).includes(merchantKey)))
        candidate.confidence -= 0.2;
    }
  }
  // A "GmbH & Co. KG" names its general partner in the legal block ("Beispiel Verwaltungs-GmbH"): that GmbH is not
  // the one writing.
  if (candidates.some((c) => /& ?Co\.? ?KG\b/u.test(c.name))) {
    for (const candidate of candidates) {
      if (GENERAL_PARTNER.test(candidate.name)) candidate.confidence -= 0.3;
    }
  }
  const addressKeys = (layout?.address ?? []).map(normalise).filter((key) => key.length >= 3);
  // The window's lines above its street name the recipient; its street and town are no mark of the recipient's text
  // (a sender in the same town prints them too).
  const windowLines = layout?.address ?? [];
  const placeAt = windowLines.findIndex((text) => STREET.test(text) || isPostcodeLine(text));
  const windowLineKeys = (placeAt < 0 ? windowLines : windowLines.slice(0, placeAt))
    .map(normalise)
    .filter((key) => key.length >= 6);
  const issuerKeys = (layout?.issuer ?? []).map(normalise).filter((key) => key.length >= 3);

  const buyerKey = recipients.name ? normalise(recipients.name.name) : null;
  const domainKey = domain ? normalise(domain) : null;
  const keys = candidates.map((c) => normalise(c.name));
  let best: Candidate | null = null;
  for (const [index, candidate] of candidates.entries()) {
    const key = keys[index]!;
    if (!key || key === buyerKey) continue;
    // The recipient's window names the buyer: nothing read from its lines, nor a name printed only there, is the sender.
    const sourceKey = candidate.line >= 0 ? normalise(lines[candidate.line] ?? '') : '';
    const inIssuerZone = issuerKeys.some((zone) => zone.includes(key));
    // A till receipt has no address window: the block its merchant heads is the merchant's own.
    if (index !== merchantIndex) {
      if (windowLineKeys.some((zone) => sourceKey.includes(zone))) continue;
      if (!inIssuerZone && addressKeys.some((zone) => zone.includes(key))) continue;
    }
    let confidence = candidate.confidence + (inIssuerZone && candidate.line !== -1 ? 0.05 : 0);
    // Agreement raises confidence: the same name found twice, or matching the web/e-mail domain.
    const twice = candidates.some((other, j) => j !== index && other.line !== -1 && keys[j]!.includes(key));
    if (twice) confidence += 0.05;
    // Part of a longer name that carries a legal form or names an institution ("BRAND" or a logo's word beside "Brand
    // Foods Ltd", "Exampleton" beside "Exampleton Borough Council"): its short form; the full name is the one on the
    // books.
    if (
      key.length >= 4 &&
      !HAS_LEGAL_FORM.test(candidate.name) &&
      !(candidate.line >= 0 && HAS_LEGAL_FORM.test(lines[candidate.line] ?? '')) &&
      candidates.some(
        (other, j) =>
          keys[j]!.length > key.length &&
          keys[j]!.includes(key) &&
          other.confidence >= candidate.confidence - 0.05 &&
          (HAS_LEGAL_FORM.test(other.line >= 0 ? (lines[other.line] ?? '') : other.name) ||
            INSTITUTION.test(other.name)),
      )
    )
      confidence -= 0.15;
    if (domainKey && candidate.line !== -1 && key.includes(domainKey.slice(0, 6))) confidence += 0.05;
    if (!best || confidence > best.confidence) best = { ...candidate, confidence: Math.min(0.95, confidence) };
  }
  // A brand at the top of the page that the chosen name does not contain ("SÄGE & SCHRAUBE" over "Baumarkt Beispiel KG"):
  // two names compete for the sender, and either may be the one a person files it under.
  if (best && first >= 0 && best.line !== first) {
    const top = normalise(lines[first] ?? '');
    const chosen = normalise(best.name);
    const brand = (lines[first] ?? '').split(' ').length <= 4 && !/\d/.test(lines[first] ?? '') && top.length >= 3;
    if (brand && !chosen.includes(top) && !top.includes(chosen))
      best = { ...best, confidence: Math.min(best.confidence, 0.75) };
  }
  const sender = best
    ? {
        name: withLettersForDigits(best.name),
        confidence: round(best.confidence),
        evidence: evidence(lines[best.line] ?? best.name),
      }
    : null;
  const buyer = recipients.name
    ? {
        name: recipients.name.name,
        confidence: recipients.name.confidence,
        evidence: evidence(lines[recipients.name.line] ?? ''),
      }
    : null;
  return { sender, buyer };
}

/**
 * Who a cheque is made out to: the sender, as its payment instructions name it ("Make all cheques payable to Jane
 * Example", "chèque à l'ordre de …"). Not an account's holder ("t.n.v.", "intestato a"): a broker or a payment
 * service collects for many senders.
 */
const PAYEE_INTRO = /(?:payable to|made out to|[àa] l['’]ordre de)\s*:?\s*["“”'‘]?/iu;
const PAYEE_NAME = /^\p{Lu}[^,;:"“”()\d]{1,60}?(?=\s*(?:["“”]|['’](?!\p{L})|[,;.(]|\s(?:or|ou|with|avec)\s|$))/u;

function payeeOf(line: string): string | null {
  const intro = PAYEE_INTRO.exec(line);
  if (!intro) return null;
  const name = PAYEE_NAME.exec(line.slice(intro.index + intro[0].length))?.[0].trim();
  return name && name.split(/\s+/u).length <= 8 ? name : null;
}

/**
 * Register, tax or bank details on the line or the one above or below it; with `below`, further lines under it as well
 * (a till slip's foot: the name, its street, its VAT id).
 */
function nearLegalData(lines: readonly string[], index: number, below = 1): boolean {
  for (let j = index - 1; j <= index + below; j++) if (LEGAL_DATA.test(lines[j] ?? '')) return true;
  return false;
}

/** The nearest line with text below line `index`, within two lines. */
function nextTextLine(lines: readonly string[], index: number): number | null {
  for (let j = index + 1; j <= Math.min(lines.length - 1, index + 2); j++) if (lines[j]!.trim()) return j;
  return null;
}

/** The nearest line with text above line `index`, within two lines (OCR puts a blank line between most lines). */
function previousTextLine(lines: readonly string[], index: number): number | null {
  for (let j = index - 1; j >= Math.max(0, index - 2); j--) if (lines[j]!.trim()) return j;
  return null;
}

/** "Jeanne EXEMPLE-MARTIN", "LAURA EJEMPLO RUIZ": two to four words, each starting with a capital, no company form. */
function isPersonName(line: string): boolean {
  return !HAS_LEGAL_FORM.test(line) && /^\p{Lu}[\p{L}'’-]+(?: \p{Lu}[\p{L}'’-]+){1,3}$/u.test(line);
}

/** "Bramblewood Veterinary Practice", "ESCUELA DE DANZA EJEMPLO", "Kinderopvang De Voorbeeldtuin": a name of 2–6 words. */
function isNameLine(line: string): boolean {
  // A professional's title before the name ("Dott.ssa", "Dr.", "Ing.", "Avv.", "Me") is part of how they sign.
  const words = line
    .replace(/^(?:dott\.ssa|dr\.ssa|dott|dr|ing|avv|prof|arch|geom|rag|mag|me|mr|mrs|ms)\.? /iu, '')
    .split(' ');
  return (
    words.length >= 2 &&
    words.length <= 6 &&
    !/\d/.test(line) &&
    words.every(
      (word) => /^\p{Lu}/u.test(word) || /^(?:de|di|del|della|van|von|het|la|le|el|y|&|and|und|et)$/iu.test(word),
    )
  );
}

/** Whether an address starts at line `at`: a street over a town, a postcode line, or both on one line. */
function addressFollows(lines: readonly string[], at: number): boolean {
  const next = lines[at] ?? '',
    after = lines[at + 1] ?? '';
  return (
    (STREET.test(next) && (POSTCODE_LINE.test(after) || /\d/.test(after))) ||
    POSTCODE_LINE.test(next) ||
    isStreetAndTown(next) ||
    (/\d/.test(next) && POSTCODE_LINE.test(after))
  );
}

/**
 * A freelancer's letterhead: the name, then what the business does and its tax number, then the address ("Lucía
 * Ferrer" / "Ilustración editorial" / "NIF 12345678-Z" / "C/ Mayor, 5" / "46010 València"). At most two such lines between.
 */
function addressAfterProfile(lines: readonly string[], i: number): boolean {
  let at = i + 1;
  const profile = (line: string): boolean =>
    isSlogan(line) || isTradeList(line) || LEGAL_DATA.test(line) || OWNER_LINE.test(line) || /^di \p{Lu}/u.test(line);
  while (at <= i + 2 && profile(lines[at] ?? '')) at++;
  return at > i + 1 && addressFollows(lines, at);
}

/** "Cartoleria Esempio" / "di Rossi Anna": an Italian sole trader's name goes on with its owner's. */
function withOwner(lines: readonly string[], i: number): string {
  const line = (lines[i] ?? '').trim();
  const next = (lines[i + 1] ?? '').trim();
  if (/^di \p{Lu}\p{L}+ \p{Lu}\p{L}+$/u.test(next)) return `${line} ${next}`;
  // A letterhead name set over two lines ("FARMACIA ESEMPIO" / "della Dott.ssa Anna Rossi", "LAKESIDE" / "COMMUNITY
  // HOSPITAL"). Not an owner company under a shop's sign ("BAR ESEMPIO" / "di Rossi Anna & C. snc"): the sign is the
  // name people know.
  if (!next || next.length > 40 || /[\d,;:·|•()@]/u.test(next) || NOT_A_NAME.test(next) || BRANCH.test(next))
    return line;
  // A title and a person's name under a generic name of one or two words: the practice is the person's.
  const goesOn =
    line.split(/\s+/).length <= 2 &&
    /^(?:(?:della|dello|di|de|del|des|du|van|von|der)\s+)?(?:dott\.(?:ssa)?|dr\.|prof\.|mag\.)\s+\p{Lu}/iu.test(next);
  const shortCaps = (text: string): boolean => /^[\p{Lu}&' .-]+$/u.test(text) && text.split(/\s+/).length <= 4;
  const shortLine = (text: string): boolean => !/\d/u.test(text) && text.split(/\s+/).length <= 3;
  // A generic first line over a proper name in capitals ("Caisse d'épargne" / "VAL-EXEMPLE"), or a name in capitals
  // over the one trade word it is known by ("BLAD & VOORBEELD" / "hoveniers").
  const overCaps = shortLine(line) && shortCaps(next) && !isTradeList(next);
  const tradeWord = shortCaps(line) && /^\p{Ll}+$/u.test(next);
  return goesOn || overCaps || tradeWord ? `${line} ${next}` : line;
}

/** "Charpente · Couverture · Zinguerie": the trades a letterhead lists under its name. */
function isTradeList(line: string): boolean {
  const parts = line.split(/ [·•|–-] /u);
  return parts.length >= 3 && !/\d/.test(line) && parts.every((part) => part.split(' ').length <= 3);
}

/** Three words or more, most of them lower case: a slogan ("Schön wohnen in der Stadt"), not a company's name. */
function isSlogan(line: string): boolean {
  const words = line.split(/\s+/u).filter((word) => /\p{L}/u.test(word));
  return words.length >= 3 && words.filter((word) => /^\p{Ll}/u.test(word)).length * 2 >= words.length;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
