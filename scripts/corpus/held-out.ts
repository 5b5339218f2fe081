/**
 * The held-out plan (npm run corpus -- --held-out): senders, templates and wording the committed corpus does not
 * use, in the six languages, so the evaluation can show how the rules do on documents they were never tuned on.
 * Never tune a rule on it. Every name, address and number here is invented.
 */
import { iban, type Lang } from './format.ts';
import type { DocStyle } from './model.ts';
import type { Recipient, Sender } from './parties.ts';
import type { PlanEntry } from './plan.ts';

const style = (family: DocStyle['family'], accent: DocStyle['accent'], letterhead: DocStyle['letterhead']): DocStyle =>
  ({ family, accent, letterhead, size: 9.5, margin: 64 });

export const HELD_OUT_SENDERS: Sender[] = [
  { key: 'ho-fr-atelier', name: 'Atelier Courtil Menuiserie SARL', lang: 'fr', country: 'FR', category: 'Housing', tagline: 'Menuiserie · Agencement',
    street: '14 rue des Tanneurs', postcode: '69007', city: 'Lyon', phone: '04 72 18 40 96', email: 'contact@courtil-menuiserie.fr',
    web: 'www.courtil-menuiserie.fr', bank: { name: 'Banque Rhodanienne', iban: iban('FR', '30004018720001234567842'), bic: 'BRHOFRPPXXX' },
    registry: 'RCS Lyon 812 447 903', vatId: 'FR 47 812447903', managers: null, currency: 'EUR', style: style('serif', [120, 40, 30], 'columns') },
  { key: 'ho-nl-installatie', name: 'Installatiebedrijf Hoekstra B.V.', lang: 'nl', country: 'NL', category: 'Utilities', tagline: null,
    street: 'Zuiderdiep 88', postcode: '9711 HM', city: 'Groningen', phone: '050 318 2290', email: 'info@hoekstra-installatie.nl',
    web: 'www.hoekstra-installatie.nl', bank: { name: 'Noorder Spaarbank', iban: iban('NL', 'NSPB0417283951'), bic: 'NSPBNL2G' },
    registry: 'KvK 71940328', vatId: 'NL859130447B01', managers: null, currency: 'EUR', style: style('sans', [0, 110, 80], 'left') },
  { key: 'ho-es-clinica', name: 'Clínica Veterinaria Albereda S.L.', lang: 'es', country: 'ES', category: 'Health', tagline: 'Pequeños animales',
    street: 'Calle del Turia 31', postcode: '46008', city: 'Valencia', phone: '963 41 27 80', email: 'citas@albereda-vet.es',
    web: 'www.albereda-vet.es', bank: { name: 'Caja Levantina', iban: iban('ES', '21000418450200051332'), bic: 'CLEVESMMXXX' },
    registry: 'Registro Mercantil de Valencia, Tomo 9912', vatId: 'B98417720', managers: null, currency: 'EUR', style: style('sans', [30, 90, 160], 'columns') },
  { key: 'ho-it-tipografia', name: 'Tipografia Brambilla S.r.l.', lang: 'it', country: 'IT', category: 'Work', tagline: 'Stampa digitale e offset',
    street: 'Via Borgo Palazzo 57', postcode: '24125', city: 'Bergamo', phone: '035 240 118', email: 'ordini@tipografiabrambilla.it',
    web: 'www.tipografiabrambilla.it', bank: { name: 'Banca Orobica', iban: iban('IT', 'X0542811101000000123456'), bic: 'BOROITM1XXX' },
    registry: 'REA BG-338201', vatId: 'IT03948120164', managers: null, currency: 'EUR', style: style('serif', [60, 60, 120], 'left') },
  { key: 'ho-en-studio', name: 'Marlowe Ridge Surveyors Ltd', lang: 'en', country: 'GB', category: 'Housing', tagline: 'Chartered building surveyors',
    street: '3 Tanner Row', postcode: 'YO1 6JB', city: 'York', phone: '01904 611 720', email: 'office@marloweridge.co.uk',
    web: 'www.marloweridge.co.uk', bank: { name: 'Northern Counties Bank', iban: iban('GB', 'NCBK40051831427716'), bic: 'NCBKGB2L' },
    registry: 'Registered in England No. 09117342', vatId: 'GB 318 4410 27', managers: null, currency: 'GBP', style: style('sans', [90, 30, 90], 'columns') },
  { key: 'ho-de-gaertnerei', name: 'Gärtnerei Wendland GmbH', lang: 'de', country: 'DE', category: 'Shopping', tagline: 'Stauden · Gehölze · Grabpflege',
    street: 'Feldmark 9', postcode: '29439', city: 'Lüchow', phone: '05841 9720-0', email: 'info@gaertnerei-wendland.de',
    web: 'www.gaertnerei-wendland.de', bank: { name: 'Kreissparkasse Elbufer', iban: iban('DE', '25850110003017722'.padEnd(18, '0')), bic: 'NOLADE21ELB' },
    registry: 'Amtsgericht Lüneburg HRB 207731', vatId: 'DE 318 004 552', managers: null, currency: 'EUR', style: style('sans', [40, 120, 40], 'columns') },
  // Shops: till receipts.
  { key: 'ho-fr-epicerie', name: 'Épicerie Fine Lambertin', lang: 'fr', country: 'FR', category: 'Shopping', tagline: null,
    street: '6 place du Marché', postcode: '21000', city: 'Dijon', phone: '03 80 41 22 17', email: 'bonjour@lambertin-epicerie.fr',
    web: 'www.lambertin-epicerie.fr', bank: null, registry: null, vatId: 'FR 09 533118204', managers: null, currency: 'EUR', style: style('mono', [0, 0, 0], 'left') },
  { key: 'ho-nl-bakkerij', name: 'Bakkerij Terpstra', lang: 'nl', country: 'NL', category: 'Shopping', tagline: null,
    street: 'Kerkstraat 12', postcode: '8911 CC', city: 'Leeuwarden', phone: '058 212 4471', email: 'bestel@bakkerijterpstra.nl',
    web: 'www.bakkerijterpstra.nl', bank: null, registry: null, vatId: 'NL004129381B02', managers: null, currency: 'EUR', style: style('mono', [0, 0, 0], 'left') },
  { key: 'ho-es-farmacia', name: 'Farmacia Quintanilla', lang: 'es', country: 'ES', category: 'Health', tagline: null,
    street: 'Avenida de Portugal 140', postcode: '37006', city: 'Salamanca', phone: '923 22 41 05', email: 'farmacia@quintanilla.es',
    web: 'www.farmaciaquintanilla.es', bank: null, registry: null, vatId: 'E37114820', managers: null, currency: 'EUR', style: style('mono', [0, 0, 0], 'left') },
  { key: 'ho-it-bar', name: 'Bar Pasticceria Ghidoni', lang: 'it', country: 'IT', category: 'Shopping', tagline: null,
    street: 'Corso Garibaldi 21', postcode: '43121', city: 'Parma', phone: '0521 284 117', email: 'info@pasticceriaghidoni.it',
    web: 'www.pasticceriaghidoni.it', bank: null, registry: null, vatId: 'IT02217730349', managers: null, currency: 'EUR', style: style('mono', [0, 0, 0], 'left') },
  { key: 'ho-en-cafe', name: 'Ferryside Coffee House', lang: 'en', country: 'GB', category: 'Shopping', tagline: null,
    street: '2 Quay Street', postcode: 'TR1 2HB', city: 'Truro', phone: '01872 460 118', email: 'hello@ferrysidecoffee.co.uk',
    web: 'www.ferrysidecoffee.co.uk', bank: null, registry: null, vatId: 'GB 402 1187 33', managers: null, currency: 'GBP', style: style('mono', [0, 0, 0], 'left') },
  { key: 'ho-de-kiosk', name: 'Kiosk am Wasserturm', lang: 'de', country: 'DE', category: 'Shopping', tagline: null,
    street: 'Turmstraße 2', postcode: '39104', city: 'Magdeburg', phone: '0391 5571 20', email: 'kiosk@wasserturm-md.de',
    web: 'www.wasserturm-md.de', bank: null, registry: null, vatId: 'DE 281 770 413', managers: null, currency: 'EUR', style: style('mono', [0, 0, 0], 'left') },
];

/** Invented recipients per language (private people; the address window of the invoices). */
export const HELD_OUT_RECIPIENTS: Record<Lang, Recipient> = {
  fr: { salutation: 'Madame,', name: 'Claire Dubosc', lines: ['Mme Claire Dubosc', '27 avenue Jean-Jaurès', '69007 Lyon'],
    street: '27 avenue Jean-Jaurès', postcode: '69007', city: 'Lyon', country: 'FR' },
  nl: { salutation: 'Geachte heer Mulder,', name: 'Pieter Mulder', lines: ['Dhr. P. Mulder', 'Oosterstraat 4', '9711 NR Groningen'],
    street: 'Oosterstraat 4', postcode: '9711 NR', city: 'Groningen', country: 'NL' },
  es: { salutation: 'Estimada Sra. Ortega:', name: 'Lucía Ortega', lines: ['Lucía Ortega Martín', 'Calle de Cirilo Amorós 12, 3.º', '46004 Valencia'],
    street: 'Calle de Cirilo Amorós 12', postcode: '46004', city: 'Valencia', country: 'ES' },
  it: { salutation: 'Gentile Sig. Ferri,', name: 'Marco Ferri', lines: ['Sig. Marco Ferri', 'Via Pignolo 40', '24121 Bergamo'],
    street: 'Via Pignolo 40', postcode: '24121', city: 'Bergamo', country: 'IT' },
  en: { salutation: 'Dear Mrs Pennington,', name: 'Ruth Pennington', lines: ['Mrs Ruth Pennington', '8 Bootham Terrace', 'York', 'YO30 7DH'],
    street: '8 Bootham Terrace', postcode: 'YO30 7DH', city: 'York', country: 'GB' },
  de: { salutation: 'Sehr geehrter Herr Albers,', name: 'Jonas Albers', lines: ['Herrn', 'Jonas Albers', 'Lindenring 15', '29439 Lüchow'],
    street: 'Lindenring 15', postcode: '29439', city: 'Lüchow', country: 'DE' },
};

/** The held-out documents: the multilingual templates in their second wording, over the senders above. */
export const HELD_OUT_PLAN: PlanEntry[] = [
  { type: 'invoice', sender: 'ho-fr-atelier', format: 'pdf', opts: { variant: 0 } },
  { type: 'invoice', sender: 'ho-fr-atelier', format: 'scan', opts: { variant: 1 } },
  { type: 'invoice', sender: 'ho-nl-installatie', format: 'pdf', opts: { variant: 1 } },
  { type: 'invoice', sender: 'ho-nl-installatie', format: 'png', opts: { variant: 0 } },
  { type: 'invoice', sender: 'ho-es-clinica', format: 'pdf', opts: { variant: 0 } },
  { type: 'invoice', sender: 'ho-es-clinica', format: 'jpeg', opts: { variant: 1 } },
  { type: 'invoice', sender: 'ho-it-tipografia', format: 'pdf', opts: { variant: 1 } },
  { type: 'invoice', sender: 'ho-it-tipografia', format: 'scan', opts: { variant: 0 } },
  { type: 'invoice', sender: 'ho-en-studio', format: 'pdf', opts: { variant: 0 } },
  { type: 'invoice', sender: 'ho-en-studio', format: 'png', opts: { variant: 1 } },
  { type: 'invoice', sender: 'ho-de-gaertnerei', format: 'pdf', opts: { variant: 1 } },
  { type: 'invoice', sender: 'ho-de-gaertnerei', format: 'scan', opts: { variant: 0 } },
  { type: 'receipt', sender: 'ho-fr-epicerie', format: 'jpeg', distortion: { photo: true } },
  { type: 'receipt', sender: 'ho-nl-bakkerij', format: 'png' },
  { type: 'receipt', sender: 'ho-es-farmacia', format: 'jpeg', distortion: { photo: true } },
  { type: 'receipt', sender: 'ho-it-bar', format: 'png' },
  { type: 'receipt', sender: 'ho-en-cafe', format: 'jpeg', distortion: { photo: true } },
  { type: 'receipt', sender: 'ho-de-kiosk', format: 'pdf' },
];
