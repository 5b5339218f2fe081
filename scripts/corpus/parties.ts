/** Fictional senders and recipients. Names, addresses, registry and bank data are invented. */
import { germanIban, type Lang } from './format.ts';
import type { DocStyle } from './model.ts';

export const CATEGORIES = ['Utilities', 'Insurance', 'Telecom', 'Housing', 'Work', 'Banking', 'Shopping', 'Health', 'Taxes',
  'Car'] as const;
export type Category = (typeof CATEGORIES)[number];

export interface Sender {
  key: string;
  /** The name as the sender prints it in its letterhead and footer: the truth for sender_name. */
  name: string;
  lang: Lang;
  country: 'DE' | 'GB' | 'US' | 'FR' | 'IE' | 'NL' | 'ES' | 'IT';
  category: Category;
  tagline: string | null;
  street: string;
  postcode: string;
  city: string;
  phone: string;
  email: string;
  web: string;
  bank: { name: string; iban: string; bic: string } | null;
  registry: string | null;
  vatId: string | null;
  managers: string | null;
  currency: 'EUR' | 'GBP' | 'USD';
  style: DocStyle;
}

const style = (family: DocStyle['family'], accent: DocStyle['accent'], letterhead: DocStyle['letterhead'], size = 9.5,
  margin = 70): DocStyle => ({ family, accent, letterhead, size, margin });

const de = (s: Omit<Sender, 'lang' | 'country' | 'currency'> & Partial<Pick<Sender, 'country' | 'currency'>>): Sender =>
  ({ lang: 'de', country: 'DE', currency: 'EUR', ...s });
const en = (s: Omit<Sender, 'lang'>): Sender => ({ lang: 'en', ...s });

export const SENDERS: Sender[] = [
  de({ key: 'stadtwerke', name: 'Stadtwerke Lindenau GmbH', category: 'Utilities', tagline: 'Strom · Gas · Wasser · Wärme',
    street: 'Energiestraße 12', postcode: '34567', city: 'Lindenau', phone: '05561 7040-0', email: 'service@stadtwerke-lindenau.de',
    web: 'www.stadtwerke-lindenau.de', bank: { name: 'Sparkasse Lindenau-Weser', iban: germanIban('26051450', '4471102'), bic: 'NOLADE21LIN' },
    registry: 'Amtsgericht Göttingen HRB 20417', vatId: 'DE 813 442 719', managers: 'Geschäftsführer: Dr. Henrik Aalders, Petra Lüdeke',
    style: style('sans', [0, 92, 151], 'left') }),
  de({ key: 'nordlicht', name: 'Nordlicht Versicherung AG', category: 'Insurance', tagline: 'Sicher durchs Leben',
    street: 'Hafenallee 5', postcode: '20457', city: 'Hamburg', phone: '040 3290-7700', email: 'kundenservice@nordlicht-versicherung.de',
    web: 'www.nordlicht-versicherung.de', bank: { name: 'Hanse Commerzbank', iban: germanIban('20040010', '6290115'), bic: 'HCOBDEHHXXX' },
    registry: 'Amtsgericht Hamburg HRB 118023', vatId: null, managers: 'Vorstand: Jens Carstensen (Vors.), Dr. Ulrike Behn',
    style: style('serif', [20, 40, 110], 'right', 10) }),
  de({ key: 'telenova', name: 'Telenova Deutschland GmbH', category: 'Telecom', tagline: null,
    street: 'Am Funkturm 3', postcode: '40474', city: 'Düsseldorf', phone: '0800 700 4400', email: 'hilfe@telenova.de',
    web: 'www.telenova.de', bank: { name: 'Rheinische Handelsbank', iban: germanIban('30020900', '1180044'), bic: 'RHHBDEDDXXX' },
    registry: 'Amtsgericht Düsseldorf HRB 77310', vatId: 'DE 297 118 430', managers: 'Geschäftsführung: Malte Overbeck, Sinem Kaya',
    style: style('sans', [196, 0, 88], 'bar') }),
  de({ key: 'wohnbau', name: 'Wohnbau Südstadt eG', category: 'Housing', tagline: 'Wohnungsbaugenossenschaft seit 1927',
    street: 'Gartenstraße 41', postcode: '34567', city: 'Lindenau', phone: '05561 3381-0', email: 'vermietung@wohnbau-suedstadt.de',
    web: 'www.wohnbau-suedstadt.de', bank: { name: 'Volksbank Talheim eG', iban: germanIban('52061303', '8802114'), bic: 'GENODEF1TLH' },
    registry: 'Amtsgericht Göttingen GnR 118', vatId: null, managers: 'Vorstand: Karin Jaspers, Bernd Oltmanns',
    style: style('serif', [90, 60, 20], 'center', 10, 72) }),
  de({ key: 'kessler', name: 'Kessler Maschinenbau GmbH & Co. KG', category: 'Work', tagline: 'Präzisionsteile für den Anlagenbau',
    street: 'Industriering 18-20', postcode: '34560', city: 'Fritzlar-Ost', phone: '05622 9180-0', email: 'personal@kessler-maschinenbau.de',
    web: 'www.kessler-maschinenbau.de', bank: { name: 'Kasseler Bank', iban: germanIban('52090000', '3004417'), bic: 'GENODE51KS1' },
    registry: 'Amtsgericht Kassel HRA 14410', vatId: 'DE 113 502 664', managers: 'Komplementärin: Kessler Verwaltungs GmbH',
    style: style('sans', [60, 60, 60], 'left', 9) }),
  de({ key: 'volksbank', name: 'Volksbank Talheim eG', category: 'Banking', tagline: null,
    street: 'Marktplatz 2', postcode: '74388', city: 'Talheim', phone: '07133 9600-0', email: 'info@vb-talheim.de',
    web: 'www.vb-talheim.de', bank: null, registry: 'Amtsgericht Stuttgart GnR 231', vatId: null,
    managers: 'Vorstand: Achim Reber, Tanja Holzwarth', style: style('sans', [0, 70, 160], 'right') }),
  de({ key: 'kraemer', name: 'Möbelhaus Krämer GmbH', category: 'Shopping', tagline: 'Wohnen mit Stil – seit 1958',
    street: 'Gewerbepark Nord 7', postcode: '34582', city: 'Borken (Hessen)', phone: '05682 7391-0', email: 'verkauf@moebel-kraemer.de',
    web: 'www.moebel-kraemer.de', bank: { name: 'Sparkasse Schwalm-Eder', iban: germanIban('52052154', '120034'), bic: 'HELADEF1MEG' },
    registry: 'Amtsgericht Fritzlar HRB 1092', vatId: 'DE 114 770 203', managers: 'Geschäftsführer: Frank Krämer',
    style: style('serif', [130, 20, 30], 'left', 10) }),
  de({ key: 'brandt', name: 'Elektro Brandt e.K.', category: 'Shopping', tagline: 'Elektroinstallation · Smart Home · Photovoltaik',
    street: 'Mühlenweg 9', postcode: '34567', city: 'Lindenau', phone: '05561 22 48', email: 'info@elektro-brandt.de',
    web: 'www.elektro-brandt.de', bank: { name: 'Volksbank Talheim eG', iban: germanIban('52061303', '4410098'), bic: 'GENODEF1TLH' },
    registry: 'Amtsgericht Göttingen HRA 3371', vatId: 'DE 262 901 447', managers: 'Inhaber: Meister Uwe Brandt',
    style: style('sans', [230, 120, 0], 'right', 9.5, 62) }),
  de({ key: 'weiss', name: 'Zahnarztpraxis Dr. Anna Weiß', category: 'Health', tagline: 'Zahnmedizin · Prophylaxe · Implantologie',
    street: 'Lindenstraße 4', postcode: '34567', city: 'Lindenau', phone: '05561 918 20', email: 'praxis@zahnarzt-weiss.de',
    web: 'www.zahnarzt-weiss.de', bank: { name: 'Deutsche Apotheker- und Ärztebank', iban: germanIban('30060601', '7712034'), bic: 'DAAEDEDDXXX' },
    registry: null, vatId: null, managers: null, style: style('sans', [0, 130, 130], 'center', 9.5) }),
  de({ key: 'finanzamt', name: 'Finanzamt Lindenau', category: 'Taxes', tagline: null,
    street: 'Am Amtsgericht 1', postcode: '34567', city: 'Lindenau', phone: '05561 705-0', email: 'poststelle@fa-lindenau.example',
    web: 'www.finanzamt-lindenau.example', bank: { name: 'Bundesbank Filiale Hannover', iban: germanIban('25000000', '25001512'), bic: 'MARKDEF1250' },
    registry: null, vatId: null, managers: null, style: style('sans', [0, 0, 0], 'left', 9.5, 68) }),
  de({ key: 'becker', name: 'Autohaus Becker GmbH', category: 'Car', tagline: 'Vertragswerkstatt · Neu- und Gebrauchtwagen',
    street: 'Kasseler Landstraße 88', postcode: '34567', city: 'Lindenau', phone: '05561 9440-0', email: 'service@autohaus-becker.de',
    web: 'www.autohaus-becker.de', bank: { name: 'Sparkasse Lindenau-Weser', iban: germanIban('26051450', '9932001'), bic: 'NOLADE21LIN' },
    registry: 'Amtsgericht Göttingen HRB 11882', vatId: 'DE 181 330 925', managers: 'Geschäftsführer: Markus Becker',
    style: style('sans', [10, 10, 120], 'bar', 9) }),
  de({ key: 'schroeder', name: 'Hausverwaltung Schröder & Partner GmbH', category: 'Housing', tagline: 'Miet- und WEG-Verwaltung',
    street: 'Bahnhofstraße 22', postcode: '37073', city: 'Göttingen', phone: '0551 4880-310', email: 'abrechnung@hv-schroeder.de',
    web: 'www.hv-schroeder.de', bank: { name: 'Sparkasse Göttingen', iban: germanIban('26050001', '56118'), bic: 'NOLADE21GOE' },
    registry: 'Amtsgericht Göttingen HRB 3950', vatId: null, managers: 'Geschäftsführerin: Elke Schröder',
    style: style('serif', [0, 90, 50], 'right', 10) }),
  de({ key: 'bkk', name: 'BKK Nordwest Gesundheit', category: 'Health', tagline: 'Ihre Betriebskrankenkasse',
    street: 'Kronprinzenstraße 30', postcode: '45128', city: 'Essen', phone: '0201 8455-0', email: 'service@bkk-nordwest.example',
    web: 'www.bkk-nordwest.example', bank: null, registry: 'Körperschaft des öffentlichen Rechts', vatId: null,
    managers: 'Vorstand: Dirk Hüsing', style: style('sans', [0, 120, 60], 'left') }),
  de({ key: 'sonnenschein', name: 'Drogerie Sonnenschein GmbH', category: 'Shopping', tagline: null,
    street: 'Marktstraße 14', postcode: '34567', city: 'Lindenau', phone: '05561 3090', email: 'filiale217@sonnenschein-drogerie.de',
    web: 'www.sonnenschein-drogerie.de', bank: null, registry: 'Amtsgericht Kassel HRB 9002', vatId: 'DE 246 117 803', managers: null,
    style: style('mono', [0, 0, 0], 'center', 8) }),
  de({ key: 'biomarkt', name: 'Bio-Markt Grünfeld OHG', category: 'Shopping', tagline: null,
    street: 'Rosenplatz 3', postcode: '37073', city: 'Göttingen', phone: '0551 770 1212', email: 'kasse@biomarkt-gruenfeld.de',
    web: 'www.biomarkt-gruenfeld.de', bank: null, registry: 'Amtsgericht Göttingen HRA 2290', vatId: 'DE 305 889 140', managers: null,
    style: style('mono', [0, 0, 0], 'center', 8) }),
  de({ key: 'yilmaz', name: 'Kfz-Meisterbetrieb Yilmaz', category: 'Car', tagline: 'Reparatur aller Marken · HU/AU',
    street: 'Im Grund 6', postcode: '34567', city: 'Lindenau', phone: '05561 60 77 5', email: 'werkstatt@kfz-yilmaz.de',
    web: 'www.kfz-yilmaz.de', bank: { name: 'Volksbank Talheim eG', iban: germanIban('52061303', '7310025'), bic: 'GENODEF1TLH' },
    registry: null, vatId: 'DE 318 224 077', managers: 'Inhaber: Kemal Yilmaz', style: style('sans', [180, 0, 0], 'left', 9.5) }),
  de({ key: 'tankstelle', name: 'Tankstelle Nordring Hahn GmbH', category: 'Car', tagline: null,
    street: 'Nordring 101', postcode: '34567', city: 'Lindenau', phone: '05561 4411', email: 'nordring@tank-hahn.de',
    web: 'www.tank-hahn.de', bank: null, registry: 'Amtsgericht Göttingen HRB 7719', vatId: 'DE 211 003 556', managers: null,
    style: style('mono', [0, 0, 0], 'center', 8) }),
  de({ key: 'hoffmann', name: 'Hoffmann Rechtsanwälte PartG mbB', category: 'Housing', tagline: 'Mietrecht · Arbeitsrecht · Verkehrsrecht',
    street: 'Theaterplatz 8', postcode: '37073', city: 'Göttingen', phone: '0551 499 870', email: 'kanzlei@hoffmann-ra.de',
    web: 'www.hoffmann-ra.de', bank: { name: 'Sparkasse Göttingen', iban: germanIban('26050001', '1140992'), bic: 'NOLADE21GOE' },
    registry: 'Amtsgericht Essen PR 3381', vatId: 'DE 266 114 502', managers: null, style: style('serif', [40, 40, 40], 'center', 10.5, 72) }),
  de({ key: 'vitalis', name: 'Vitalis Fitness GmbH', category: 'Health', tagline: 'Fitness · Kurse · Sauna',
    street: 'Sportallee 2', postcode: '34567', city: 'Lindenau', phone: '05561 77 66 0', email: 'mitglieder@vitalis-fitness.de',
    web: 'www.vitalis-fitness.de', bank: { name: 'Sparkasse Lindenau-Weser', iban: germanIban('26051450', '5501882'), bic: 'NOLADE21LIN' },
    registry: 'Amtsgericht Göttingen HRB 20871', vatId: 'DE 330 117 428', managers: 'Geschäftsführer: Tobias Renner',
    style: style('sans', [120, 180, 0], 'left') }),
  de({ key: 'pixelwerk', name: 'Pixelwerk Software GmbH', category: 'Work', tagline: 'Individualsoftware & Hosting',
    street: 'Weender Landstraße 59', postcode: '37075', city: 'Göttingen', phone: '0551 3899 410', email: 'rechnung@pixelwerk.de',
    web: 'www.pixelwerk.de', bank: { name: 'Sparkasse Göttingen', iban: germanIban('26050001', '56009931'), bic: 'NOLADE21GOE' },
    registry: 'Amtsgericht Göttingen HRB 204711', vatId: 'DE 318 775 012', managers: 'Geschäftsführer: Jonas Friedrichs',
    style: style('sans', [90, 40, 160], 'left') }),
  de({ key: 'falk', name: 'Ingenieurbüro Falk GmbH', category: 'Work', tagline: 'Tragwerksplanung · Bauphysik',
    street: 'Schillerstraße 17', postcode: '34117', city: 'Kassel', phone: '0561 701 557-0', email: 'buchhaltung@ib-falk.de',
    web: 'www.ib-falk.de', bank: { name: 'Kasseler Bank', iban: germanIban('52090000', '7751120'), bic: 'GENODE51KS1' },
    registry: 'Amtsgericht Kassel HRB 17228', vatId: 'DE 276 441 983', managers: 'Geschäftsführerin: Dipl.-Ing. Miriam Falk',
    style: style('sans', [0, 100, 100], 'right') }),
  de({ key: 'rheintal', name: 'Rheintal Druck GmbH', category: 'Work', tagline: 'Offset- und Digitaldruck',
    street: 'Am Rheinufer 31', postcode: '55116', city: 'Mainz', phone: '06131 58 220-0', email: 'auftrag@rheintal-druck.de',
    web: 'www.rheintal-druck.de', bank: { name: 'Mainzer Volksbank', iban: germanIban('55190000', '33871006'), bic: 'MVBMDE55XXX' },
    registry: 'Amtsgericht Mainz HRB 40991', vatId: 'DE 149 002 381', managers: 'Geschäftsführer: Stefan Weinreich',
    style: style('serif', [150, 0, 60], 'left') }),
  de({ key: 'bueroprofi', name: 'Büroprofi Schmitt GmbH', category: 'Shopping', tagline: 'Bürobedarf · Möbel · Technik',
    street: 'Robert-Bosch-Straße 4', postcode: '34123', city: 'Kassel', phone: '0561 57 90 90', email: 'rechnung@bueroprofi-schmitt.de',
    web: 'www.bueroprofi-schmitt.de', bank: { name: 'Kasseler Bank', iban: germanIban('52090000', '11904418'), bic: 'GENODE51KS1' },
    registry: 'Amtsgericht Kassel HRB 8830', vatId: 'DE 113 290 114', managers: 'Geschäftsführer: Rainer Schmitt',
    style: style('sans', [0, 110, 180], 'bar') }),
  de({ key: 'justitia', name: 'Justitia Rechtsschutz-Versicherung AG', category: 'Insurance', tagline: 'Recht haben. Recht bekommen.',
    street: 'Königsallee 61', postcode: '40215', city: 'Düsseldorf', phone: '0211 4980-500', email: 'vertrag@justitia-rechtsschutz.de',
    web: 'www.justitia-rechtsschutz.de', bank: { name: 'Rheinische Handelsbank', iban: germanIban('30020900', '5541207'), bic: 'RHHBDEDDXXX' },
    registry: 'Amtsgericht Düsseldorf HRB 41172', vatId: null, managers: 'Vorstand: Dr. Claudia Rehm (Vors.), Oliver Stein',
    style: style('serif', [110, 0, 30], 'left', 10) }),
  de({ key: 'bussgeld', name: 'Stadt Lindenau', category: 'Car', tagline: 'Der Bürgermeister – Ordnungsamt, Bußgeldstelle',
    street: 'Rathausplatz 1', postcode: '34567', city: 'Lindenau', phone: '05561 708-0', email: 'bussgeldstelle@lindenau.example',
    web: 'www.lindenau.example', bank: { name: 'Sparkasse Lindenau-Weser', iban: germanIban('26051450', '100'), bic: 'NOLADE21LIN' },
    registry: null, vatId: null, managers: null, style: style('sans', [0, 0, 0], 'left', 9.5, 68) }),
  de({ key: 'sonnenhof', name: 'Pflegedienst Sonnenhof gGmbH', category: 'Work', tagline: 'Ambulante Pflege',
    street: 'Am Kurpark 12', postcode: '37431', city: 'Bad Lauterberg', phone: '05524 8821-0', email: 'lohn@sonnenhof-pflege.de',
    web: 'www.sonnenhof-pflege.de', bank: null, registry: 'Amtsgericht Braunschweig HRB 205390', vatId: null,
    managers: 'Geschäftsführerin: Ilse Grotefend', style: style('sans', [200, 130, 0], 'right', 9) }),
  de({ key: 'vogel', name: 'Bäckerei Vogel GmbH', category: 'Work', tagline: 'Handwerksbäckerei seit 1911',
    street: 'Brückenstraße 3', postcode: '34567', city: 'Lindenau', phone: '05561 2211', email: 'buero@baeckerei-vogel.de',
    web: 'www.baeckerei-vogel.de', bank: null, registry: 'Amtsgericht Göttingen HRB 1205', vatId: null,
    managers: 'Geschäftsführer: Martin Vogel', style: style('serif', [120, 70, 20], 'center', 9.5) }),

  en({ key: 'northwind', name: 'Northwind Energy Ltd', country: 'GB', currency: 'GBP', category: 'Utilities', tagline: 'Cleaner power for every home',
    street: 'Northwind House, 40 Quayside', postcode: 'NE1 3DX', city: 'Newcastle upon Tyne', phone: '0330 088 4410',
    email: 'help@northwind-energy.co.uk', web: 'northwind-energy.co.uk',
    bank: { name: 'Tynebridge Bank', iban: 'GB29 TYNE 4011 2233 4455 66', bic: 'TYNEGB2L' },
    registry: 'Registered in England and Wales No. 08841207', vatId: 'GB 218 4471 09', managers: null,
    style: style('sans', [0, 140, 90], 'left', 9.5, 56) }),
  en({ key: 'brightwater', name: 'Brightwater Water Services plc', country: 'GB', currency: 'GBP', category: 'Utilities', tagline: null,
    street: 'PO Box 118, Riverside Way', postcode: 'CT1 2QP', city: 'Canterbury', phone: '0345 600 2218',
    email: 'customer.care@brightwater.co.uk', web: 'brightwater.co.uk', bank: null,
    registry: 'Registered in England No. 02366544', vatId: 'GB 540 1180 72', managers: null,
    style: style('sans', [0, 110, 190], 'right', 9.5, 56) }),
  en({ key: 'harbourside', name: 'Harbourside Insurance Ltd', country: 'GB', currency: 'GBP', category: 'Insurance', tagline: 'Home · Motor · Travel',
    street: '7 Marina Parade', postcode: 'BN1 1AA', city: 'Brighton', phone: '0800 917 3344', email: 'policies@harbourside-insurance.co.uk',
    web: 'harbourside-insurance.co.uk', bank: null,
    registry: 'Registered in England and Wales No. 04418827. Authorised and regulated by the Financial Conduct Authority (FRN 311982).',
    vatId: null, managers: null, style: style('serif', [0, 60, 110], 'left', 10, 56) }),
  en({ key: 'skylink', name: 'Skylink Mobile Ltd', country: 'GB', currency: 'GBP', category: 'Telecom', tagline: null,
    street: '200 Aldersgate Street', postcode: 'EC1A 4HD', city: 'London', phone: '0333 014 2020', email: 'support@skylink-mobile.co.uk',
    web: 'skylink-mobile.co.uk', bank: null, registry: 'Registered in England and Wales No. 09917234', vatId: 'GB 301 7745 18',
    managers: null, style: style('sans', [230, 0, 120], 'bar', 9.5, 56) }),
  en({ key: 'fibrestream', name: 'FibreStream Broadband Inc.', country: 'US', currency: 'USD', category: 'Telecom', tagline: 'Gigabit internet & TV',
    street: '1200 Harbor Blvd, Suite 300', postcode: 'OR 97209', city: 'Portland', phone: '1-800-555-0142', email: 'billing@fibrestream.example',
    web: 'fibrestream.example', bank: null, registry: null, vatId: null, managers: null,
    style: style('sans', [0, 90, 200], 'left', 9.5, 54) }),
  en({ key: 'oakridge', name: 'Oakridge Property Management LLC', country: 'US', currency: 'USD', category: 'Housing', tagline: null,
    street: '455 Alder Street, Floor 2', postcode: 'OR 97204', city: 'Portland', phone: '(503) 555-0177', email: 'leasing@oakridgepm.example',
    web: 'oakridgepm.example', bank: null, registry: null, vatId: null, managers: null,
    style: style('serif', [70, 90, 40], 'center', 10.5, 72) }),
  en({ key: 'pinecrest', name: 'Pinecrest Analytics Ltd', country: 'GB', currency: 'GBP', category: 'Work', tagline: null,
    street: '3rd Floor, 18 Whitworth Street', postcode: 'M1 3NR', city: 'Manchester', phone: '0161 496 0300', email: 'payroll@pinecrest-analytics.co.uk',
    web: 'pinecrest-analytics.co.uk', bank: null, registry: 'Registered in England and Wales No. 10477312', vatId: null, managers: null,
    style: style('sans', [40, 100, 60], 'left', 9, 56) }),
  en({ key: 'meridian', name: 'Meridian Bank plc', country: 'GB', currency: 'GBP', category: 'Banking', tagline: null,
    street: '1 Threadneedle Court', postcode: 'EC2R 8AY', city: 'London', phone: '0345 734 1100', email: 'help@meridianbank.co.uk',
    web: 'meridianbank.co.uk', bank: null,
    registry: 'Meridian Bank plc. Registered in England and Wales No. 00218844. Authorised by the Prudential Regulation Authority.',
    vatId: null, managers: null, style: style('sans', [120, 0, 40], 'right', 9, 56) }),
  en({ key: 'gadgetcorner', name: 'Gadget Corner Ltd', country: 'GB', currency: 'GBP', category: 'Shopping', tagline: 'Phones · Laptops · Accessories',
    street: 'Unit 4, Riverside Retail Park', postcode: 'TN24 8GH', city: 'Ashford', phone: '01233 610 445', email: 'orders@gadgetcorner.co.uk',
    web: 'gadgetcorner.co.uk', bank: { name: 'Kentish Bank', iban: 'GB82 KENT 2004 1155 0193 77', bic: 'KENTGB21' },
    registry: 'Registered in England and Wales No. 07733129', vatId: 'GB 144 0921 37', managers: null,
    style: style('sans', [255, 90, 0], 'left', 9.5, 56) }),
  en({ key: 'riverside', name: 'Riverside Dental Clinic', country: 'GB', currency: 'GBP', category: 'Health', tagline: 'Private and family dentistry',
    street: '22 Bank Street', postcode: 'TN23 1BA', city: 'Ashford', phone: '01233 620 980', email: 'reception@riversidedental.co.uk',
    web: 'riversidedental.co.uk', bank: { name: 'Kentish Bank', iban: 'GB44 KENT 2004 1177 4410 02', bic: 'KENTGB21' },
    registry: null, vatId: null, managers: null, style: style('serif', [0, 120, 140], 'center', 10, 60) }),
  en({ key: 'ashford', name: 'Ashford Borough Council', country: 'GB', currency: 'GBP', category: 'Car', tagline: 'Parking Services',
    street: 'Civic Centre, Tannery Lane', postcode: 'TN23 1PL', city: 'Ashford', phone: '01233 331 111', email: 'parking@ashford.example',
    web: 'ashford.example/parking', bank: null, registry: null, vatId: null, managers: null,
    style: style('sans', [0, 0, 0], 'left', 9.5, 56) }),
  en({ key: 'greenfield', name: 'Greenfield Motors Ltd', country: 'GB', currency: 'GBP', category: 'Car', tagline: 'Servicing · MOT · Sales',
    street: 'Greenfield Way', postcode: 'TN25 4AB', city: 'Ashford', phone: '01233 700 812', email: 'service@greenfieldmotors.co.uk',
    web: 'greenfieldmotors.co.uk', bank: { name: 'Kentish Bank', iban: 'GB51 KENT 2004 1190 2277 14', bic: 'KENTGB21' },
    registry: 'Registered in England and Wales No. 05513390', vatId: 'GB 877 2910 46', managers: null,
    style: style('sans', [0, 80, 40], 'right', 9.5, 56) }),
  en({ key: 'atlas', name: 'Atlas Office Supplies Inc.', country: 'US', currency: 'USD', category: 'Shopping', tagline: 'Everything for the modern office',
    street: '88 Commerce Drive', postcode: 'IL 60607', city: 'Chicago', phone: '(312) 555-0198', email: 'ar@atlasoffice.example',
    web: 'atlasoffice.example', bank: null, registry: null, vatId: null, managers: null,
    style: style('sans', [30, 60, 120], 'left', 9, 54) }),
  en({ key: 'summit', name: 'Summit Legal LLP', country: 'GB', currency: 'GBP', category: 'Housing', tagline: 'Solicitors',
    street: '9 Castle Street', postcode: 'CT1 2PR', city: 'Canterbury', phone: '01227 455 900', email: 'enquiries@summit-legal.co.uk',
    web: 'summit-legal.co.uk', bank: null,
    registry: 'Summit Legal LLP is a limited liability partnership registered in England and Wales (OC412288). Authorised and regulated by the Solicitors Regulation Authority (SRA No. 644190).',
    vatId: null, managers: null, style: style('serif', [50, 50, 50], 'center', 10.5, 72) }),
  en({ key: 'evergreen', name: 'Evergreen Health Insurance Inc.', country: 'US', currency: 'USD', category: 'Insurance', tagline: null,
    street: 'P.O. Box 44190', postcode: 'WA 98104', city: 'Seattle', phone: '1-888-555-0110', email: 'members@evergreenhealth.example',
    web: 'evergreenhealth.example', bank: null, registry: null, vatId: null, managers: null,
    style: style('sans', [0, 120, 70], 'left', 9.5, 54) }),
  en({ key: 'blueharbor', name: 'Blue Harbor Credit Union', country: 'US', currency: 'USD', category: 'Banking', tagline: 'Federally insured by NCUA',
    street: '600 Pine Street', postcode: 'WA 98101', city: 'Seattle', phone: '1-877-555-0163', email: 'cards@blueharborcu.example',
    web: 'blueharborcu.example', bank: null, registry: null, vatId: null, managers: null,
    style: style('sans', [0, 70, 140], 'left', 9, 54) }),
  en({ key: 'mapleleaf', name: 'Maple Leaf Grocers', country: 'US', currency: 'USD', category: 'Shopping', tagline: null,
    street: '1840 SE Hawthorne Blvd', postcode: 'OR 97214', city: 'Portland', phone: '(503) 555-0123', email: 'store12@mapleleafgrocers.example',
    web: 'mapleleafgrocers.example', bank: null, registry: null, vatId: null, managers: null,
    style: style('mono', [0, 0, 0], 'center', 8) }),
  en({ key: 'quickfix', name: 'QuickFix Auto Repairs Ltd', country: 'GB', currency: 'GBP', category: 'Car', tagline: 'Tyres · Exhausts · Brakes',
    street: '12 Station Road', postcode: 'TN23 1PH', city: 'Ashford', phone: '01233 612 612', email: 'ashford@quickfix-auto.co.uk',
    web: 'quickfix-auto.co.uk', bank: null, registry: 'Registered in England and Wales No. 06620014', vatId: 'GB 991 0027 83', managers: null,
    style: style('sans', [200, 30, 30], 'left', 9.5, 56) }),
  en({ key: 'lakeside', name: 'Lakeside Gym Ltd', country: 'GB', currency: 'GBP', category: 'Health', tagline: 'Gym · Pool · Classes',
    street: 'Lakeside Leisure Centre, Park Road', postcode: 'TN24 9QJ', city: 'Ashford', phone: '01233 640 700', email: 'members@lakesidegym.co.uk',
    web: 'lakesidegym.co.uk', bank: null, registry: 'Registered in England and Wales No. 11208476', vatId: 'GB 300 1188 64', managers: null,
    style: style('sans', [0, 150, 200], 'center', 9.5, 56) }),
  en({ key: 'lumiere', name: 'Lumière Digital SAS', country: 'FR', currency: 'EUR', category: 'Work', tagline: 'Web design & analytics',
    street: '14 rue des Capucins', postcode: '69001', city: 'Lyon', phone: '+33 4 72 00 18 90', email: 'billing@lumiere-digital.example',
    web: 'lumiere-digital.example', bank: { name: 'Banque Rhône-Alpes', iban: 'FR76 3000 4015 9700 0101 2345 678', bic: 'BRHAFRPPLYO' },
    registry: 'SAS au capital de 20 000 € – RCS Lyon 851 204 778', vatId: 'FR 44 851204778', managers: null,
    style: style('sans', [200, 40, 40], 'right', 9.5, 56) }),
  en({ key: 'kestrel', name: 'Kestrel Cloud Services Ltd', country: 'IE', currency: 'EUR', category: 'Work', tagline: null,
    street: 'Block C, Harcourt Centre', postcode: 'D02 HW77', city: 'Dublin 2', phone: '+353 1 555 0190', email: 'accounts@kestrelcloud.example',
    web: 'kestrelcloud.example', bank: { name: 'Liffey Bank', iban: 'IE64 LIFB 9311 5200 4417 20', bic: 'LIFBIE2D' },
    registry: 'Registered in Ireland No. 633908', vatId: 'IE 3388201LH', managers: null,
    style: style('sans', [20, 90, 150], 'left', 9.5, 56) }),
  en({ key: 'harbourlights', name: 'Harbour Lights Hotel Ltd', country: 'GB', currency: 'GBP', category: 'Work', tagline: null,
    street: 'The Esplanade', postcode: 'CT20 1AZ', city: 'Folkestone', phone: '01303 850 700', email: 'hr@harbourlightshotel.co.uk',
    web: 'harbourlightshotel.co.uk', bank: null, registry: 'Registered in England and Wales No. 03390172', vatId: null, managers: null,
    style: style('serif', [20, 50, 90], 'center', 10, 60) }),
  en({ key: 'cascade', name: 'Cascade Logistics Inc.', country: 'US', currency: 'USD', category: 'Work', tagline: null,
    street: '7800 NE Airport Way', postcode: 'OR 97218', city: 'Portland', phone: '(503) 555-0150', email: 'payroll@cascadelogistics.example',
    web: 'cascadelogistics.example', bank: null, registry: null, vatId: null, managers: null,
    style: style('sans', [60, 60, 60], 'left', 8.5, 48) }),
];

export function sender(key: string): Sender {
  const found = SENDERS.find((s) => s.key === key);
  if (!found) throw new Error(`unknown sender ${key}`);
  return found;
}

export interface Recipient {
  salutation: string;
  name: string;
  lines: string[];
  /** For e-invoices: the buyer's address split up. */
  street: string;
  postcode: string;
  city: string;
  country: string;
}

const DE_RECIPIENTS: Recipient[] = [
  { salutation: 'Sehr geehrte Frau Hartmann,', name: 'Julia Hartmann', lines: ['Frau', 'Julia Hartmann', 'Ahornweg 7', '34567 Lindenau'],
    street: 'Ahornweg 7', postcode: '34567', city: 'Lindenau', country: 'DE' },
  { salutation: 'Sehr geehrter Herr Neumann,', name: 'Stefan Neumann', lines: ['Herrn', 'Stefan Neumann', 'Birkenallee 23a', '34567 Lindenau'],
    street: 'Birkenallee 23a', postcode: '34567', city: 'Lindenau', country: 'DE' },
  { salutation: 'Sehr geehrte Frau Dr. Özdemir,', name: 'Dr. Leyla Özdemir', lines: ['Frau Dr.', 'Leyla Özdemir', 'Goethestraße 112', '37073 Göttingen'],
    street: 'Goethestraße 112', postcode: '37073', city: 'Göttingen', country: 'DE' },
  { salutation: 'Sehr geehrte Damen und Herren,', name: 'Familie Lehmann', lines: ['Familie', 'Klaus und Renate Lehmann', 'Am Mühlbach 3', '34560 Fritzlar'],
    street: 'Am Mühlbach 3', postcode: '34560', city: 'Fritzlar', country: 'DE' },
];

const DE_BUSINESS_RECIPIENTS: Recipient[] = [
  { salutation: 'Sehr geehrte Damen und Herren,', name: 'Hartmann Grafik & Text', lines: ['Hartmann Grafik & Text', 'Julia Hartmann', 'Ahornweg 7', '34567 Lindenau'],
    street: 'Ahornweg 7', postcode: '34567', city: 'Lindenau', country: 'DE' },
  { salutation: 'Sehr geehrte Damen und Herren,', name: 'Landkreis Lindenau', lines: ['Landkreis Lindenau', 'Fachbereich Hochbau', 'Kreishausstraße 1', '34567 Lindenau'],
    street: 'Kreishausstraße 1', postcode: '34567', city: 'Lindenau', country: 'DE' },
];

const UK_RECIPIENTS: Recipient[] = [
  { salutation: 'Dear Ms Mitchell,', name: 'Sarah Mitchell', lines: ['Ms Sarah Mitchell', '14 Willow Lane', 'Kennington', 'Ashford', 'TN24 9DE'],
    street: '14 Willow Lane', postcode: 'TN24 9DE', city: 'Ashford', country: 'GB' },
  { salutation: 'Dear Mr Okafor,', name: 'James Okafor', lines: ['Mr James Okafor', 'Flat 3, 27 Elm Grove', 'Canterbury', 'CT2 7LN'],
    street: 'Flat 3, 27 Elm Grove', postcode: 'CT2 7LN', city: 'Canterbury', country: 'GB' },
];

const US_RECIPIENTS: Recipient[] = [
  { salutation: 'Dear Mr. Brooks,', name: 'Daniel Brooks', lines: ['Daniel Brooks', '2215 Cedar Street, Apt 4B', 'Portland, OR 97205'],
    street: '2215 Cedar Street, Apt 4B', postcode: '97205', city: 'Portland', country: 'US' },
  { salutation: 'Dear Ms. Alvarez,', name: 'Maria Alvarez', lines: ['Maria Alvarez', '1907 Queen Anne Ave N', 'Seattle, WA 98109'],
    street: '1907 Queen Anne Ave N', postcode: '98109', city: 'Seattle', country: 'US' },
];

const EU_BUSINESS_RECIPIENTS: Recipient[] = [
  { salutation: 'Dear Sir or Madam,', name: 'Hartmann Grafik & Text', lines: ['Hartmann Grafik & Text', 'Attn. Julia Hartmann', 'Ahornweg 7', '34567 Lindenau', 'Germany'],
    street: 'Ahornweg 7', postcode: '34567', city: 'Lindenau', country: 'DE' },
];

export function recipientsFor(s: Sender, business: boolean): Recipient[] {
  if (s.country === 'DE') return business ? DE_BUSINESS_RECIPIENTS : DE_RECIPIENTS;
  if (s.country === 'FR' || s.country === 'IE') return EU_BUSINESS_RECIPIENTS;
  return s.country === 'US' ? US_RECIPIENTS : UK_RECIPIENTS;
}

export function addressLine(s: Sender): string {
  return s.country === 'US' ? `${s.street}, ${s.city}, ${s.postcode}` : `${s.street}, ${s.postcode} ${s.city}`;
}

/** The one-line sender address above the recipient in the window (DIN 5008 "Rücksendeangabe"). */
export function returnAddress(s: Sender): string {
  return s.country === 'US' ? `${s.name} · ${s.street} · ${s.city}, ${s.postcode}` : `${s.name} · ${s.street} · ${s.postcode} ${s.city}`;
}

export function cityLine(s: Sender): string {
  return s.country === 'US' ? `${s.city}, ${s.postcode}` : s.country === 'GB' ? `${s.city} ${s.postcode}` : `${s.postcode} ${s.city}`;
}
