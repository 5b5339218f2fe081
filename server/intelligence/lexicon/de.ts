/** German vocabulary of invoices, receipts, contracts and letters. */

import type { Lexicon } from './types.ts';

export const de: Lexicon = {
  language: 'de',
  months: [
    ['januar', 'jänner', 'jaenner', 'jan'], ['februar', 'feber', 'feb', 'febr'], ['märz', 'maerz', 'mär', 'mrz'], ['april', 'apr'],
    ['mai'], ['juni', 'jun'], ['juli', 'jul'], ['august', 'aug'], ['september', 'sept', 'sep'], ['oktober', 'okt'],
    ['november', 'nov'], ['dezember', 'dez'],
  ],
  weekdays: [['montag'], ['dienstag'], ['mittwoch'], ['donnerstag'], ['freitag'], ['samstag', 'sonnabend'], ['sonntag']],
  numberWords: {
    ein: 1, eine: 1, einem: 1, einer: 1, einen: 1, zwei: 2, drei: 3, vier: 4, fünf: 5, sechs: 6, sieben: 7, acht: 8, zehn: 10,
    zwölf: 12, vierzehn: 14, einundzwanzig: 21, dreißig: 30, sechzig: 60, neunzig: 90,
  },
  periodUnits: {
    day: 'kalendertag(?:en|e)?|tag(?:en|e)?|tg\\.?', businessDay: 'werktag(?:en|e)?|bankarbeitstag(?:en|e)?|arbeitstag(?:en|e)?',
    week: 'woche(?:n)?', month: 'monat(?:en|e|s)?', year: 'jahr(?:en|e|es)?',
  },
  within: ['innerhalb(?: von)?', 'binnen', 'in', 'nach', 'von', 'netto'],
  immediate: ['sofort(?: nach erhalt)?(?: zahlbar| fällig| ohne abzug)', 'zahlbar sofort', 'fällig sofort', 'sofort fällig', 'bei erhalt'],
  ordinal: '\\.',
  dateJoiners: [],
  labels: {
    total: ['gesamtbetrag', 'rechnungsbetrag', 'endbetrag', 'gesamtsumme', 'zu zahlen', 'zahlbetrag', 'summe', 'gesamt', 'bruttobetrag'],
    subtotal: ['zwischensumme', 'nettobetrag', 'netto', 'summe netto', 'gesamt netto'],
    tax: ['mwst\\.?', 'ust\\.?', 'umsatzsteuer', 'mehrwertsteuer'],
    dueDate: ['fällig(?: am| bis)?', 'fälligkeit(?:sdatum)?', 'zahlbar bis', 'zahlungsziel'],
    documentDate: ['rechnungsdatum', 'belegdatum', 'ausstellungsdatum', 'datum'],
    invoiceNumber: ['rechnungs-?(?:nummer|nr\\.?)', 're\\.?-? ?nr\\.?', 'rg\\.?-? ?nr\\.?'],
    creditNoteNumber: ['gutschrifts?-?(?:nummer|nr\\.?)'],
    orderNumber: ['bestell-?(?:nummer|nr\\.?)', 'auftrags?-?(?:nummer|nr\\.?)', 'lieferschein-?(?:nummer|nr\\.?)'],
    customerNumber: ['kunden-?(?:nummer|nr\\.?)', 'kd\\.?-? ?nr\\.?'],
    // A tax number (Steuernummer) is the reference of a tax office's letter, so it is not listed here.
    vatId: ['ust\\.?-?id\\.?(?:-?nr\\.?)?', 'umsatzsteuer-?id\\p{L}*', 'hrb', 'hra', 'handelsregister'],
    paymentTerms: ['zahlbar', 'zahlung\\p{L}*', 'fällig\\p{L}*', 'überweis\\p{L}*', 'netto', 'ohne abzug'],
    contractStart: ['vertragsbeginn', 'beginn(?: am)?', 'mietbeginn', 'laufzeit ab', 'ab dem'],
    contractEnd: ['vertragsende', 'laufzeitende', 'befristet bis', 'endet(?: am)?', 'ende(?: am)?', 'laufzeit bis'],
    noticePeriod: ['kündigungsfrist', 'kündigung', 'kündbar', 'gekündigt'],
    sender: ['absender', 'verkäufer', 'lieferant', 'rechnungssteller', 'von'],
  },
  documentTypes: {
    invoice: ['rechnung', '\\p{L}+rechnung'],
    receipt: ['quittung', 'kassenbon', 'kassenbeleg', 'kassenzettel', 'zahlungsbeleg'],
    creditNote: ['gutschrift', 'rechnungskorrektur', 'stornorechnung'],
    reminder: ['mahnung', 'zahlungserinnerung', 'letzte mahnung'],
    contract: ['vertrag', '\\p{L}+vertrag', 'vereinbarung'],
    payslip: ['lohnabrechnung', 'gehaltsabrechnung', 'entgeltabrechnung', 'verdienstabrechnung'],
    taxNotice: ['steuerbescheid', 'einkommensteuerbescheid', 'grundsteuerbescheid', 'bescheid'],
    policy: ['versicherungsschein', 'versicherungspolice', 'police'],
    bankStatement: ['kontoauszug', 'depotauszug', 'kreditkartenabrechnung'],
    offer: ['angebot', 'kostenvoranschlag'],
  },
  till: {
    paid: ['bar(?= ?:? ?(?:rm|rs\\.?|kr|eur|usd|chf)? ?[^a-z\\n]{0,3}\\d)', 'rückgeld', 'kartenzahlung', 'girocard', 'ec-?karte'],
    till: ['kasse(?= ?:? ?(?:rm|rs\\.?|kr|eur|usd|chf)? ?[^a-z\\n]{0,3}\\d)', 'kassierer(?:in)?', 'bon-?nr\\.?', 'terminal-?id'],
    thanks: ['vielen dank für ihren einkauf', 'danke für ihren besuch'],
  },
};
