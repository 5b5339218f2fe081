/**
 * Patterns of real documents the extractors must read: label vocabularies, totals against payments and rates,
 * deadlines of contracts, policies and offers, OCR noise, and header blocks read column by column.
 */
import { describe, expect, it } from 'vitest';
import { rejoinColumns } from '../../server/intelligence/columns.ts';
import { findDates } from '../../server/intelligence/dates.ts';
import { makeDoc } from '../../server/intelligence/text.ts';
import { understand, type Understanding } from '../../server/intelligence/understand.ts';
import { CATEGORIES, TODAY } from './sample-types.ts';

const read = (text: string): Understanding =>
  understand({ text, filename: 'scan_0001.pdf', categories: CATEGORIES, einvoice: null, today: TODAY });

/** OCR output: a blank line between the lines of text. */
const ocr = (text: string): string => text.split('\n').join('\n\n');

describe('event type', () => {
  it('finds the heading of an OCR text below a long letterhead', () => {
    const text = ocr(`Bäckerei Vogel GmbH
Handwerksbäckerei seit 1911
Brückenstraße 3 34567 Lindenau Telefon 05561 2211
Familie Pers.-Nr. 10
Klaus und Renate Lehmann Abrechnung Oktober 2026
Am Mühlbach 3 Datum 6. November 2026
34560 Fritzlar Beschäftigung Minijob
Abrechnung der Brutto/Netto-Bezüge
Stundenlohn Verkauf 14,00 €
Gesamtbrutto 520,00 €
Netto / Auszahlung 507,55 €
Die Auszahlung erfolgt zum Monatsende auf das bekannte Konto.`);
    const result = read(text);
    expect(result.event_type?.value).toBe('payslip');
    expect(result.amount?.value).toEqual({ value: 507.55, currency: 'EUR' });
  });

  it('ignores stray OCR marks before a heading', () => {
    const text = `Lakeside Gym Ltd
Lakeside Leisure Centre, Park Road, Ashford TN24 9QJ
Membership no. LG263866
Mr James Okafor
Flat 3, 27 Elm Grove
Canterbury
CT2 7LN
Date 17 October 2026
Home club Lakeside, Ashford
Membership type Off-peak plus pool
Joining fee (paid today) £20.00
Start date 20 October 2026
: Membership agreement
Dear Mr Okafor,
Welcome to Lakeside Gym. We are glad to have you with us.
Monthly fee £29.99`;
    expect(read(text).event_type?.value).toBe('contract');
  });

  it('keeps a letter that mentions a document in a sentence a letter', () => {
    const english = `Summit Legal LLP
9 Castle Street, Canterbury CT1 2PR
Our ref SL/RT/6302
Date 26 Jul 2026
Dear Ms Mitchell,
Re: Your tenancy at Flat 3, 27 Elm Grove
Thank you for your instructions. We have now reviewed your tenancy agreement and the correspondence with your landlord.
We recommend that you raise a dispute through the free adjudication service of the deposit scheme.
Yours sincerely,
Rachel Turner`;
    const german = `Hoffmann Rechtsanwälte
Theaterplatz 8, 37073 Göttingen
Unser Zeichen 112/26 HO
Datum 22.08.2026
Mietsache Gartenstraße 44 – Rückzahlung der Mietkaution
Sehr geehrte Frau Dr. Özdemir,
die Vermieterin hat mitgeteilt, dass sie einen Teilbetrag für die noch ausstehende Betriebskostenabrechnung zurückbehalten möchte.
Bitte teilen Sie uns mit, ob Sie mit dem weiteren Vorgehen einverstanden sind.
Mit freundlichen Grüßen`;
    expect(read(english).event_type?.value).toBe('letter');
    expect(read(german).event_type?.value).toBe('letter');
  });

  it('reads a service charge settlement as a statement', () => {
    const text = `Hausverwaltung Schröder & Partner GmbH
Bahnhofstraße 22, 37073 Göttingen
Abrechnungs-Nr. BK25-6585
Datum 15.07.2026
Betriebskostenabrechnung 2025
Abrechnungszeitraum: 01.01.2025 bis 31.12.2025
Summe Ihr Anteil EUR 2.668,71
abzüglich Vorauszahlungen EUR -2.448,00
Nachzahlung EUR 220,71
Bitte überweisen Sie die Nachzahlung bis zum 14.08.2026 auf unser Konto.`;
    const result = read(text);
    expect(result.event_type?.value).toBe('statement');
    expect(result.reference_number?.value).toBe('BK25-6585');
    expect(result.amount?.value).toEqual({ value: 220.71, currency: 'EUR' });
    expect(result.due_date?.value).toBe('2026-08-14');
  });

  it('reads announcements of price changes and interruptions as notices', () => {
    const letterhead = `Northwind Energy Ltd
Northwind House, 40 Quayside
Newcastle upon Tyne NE1 3DX
Tel 0330 088 4410
help@northwind-energy.co.uk
Account number 6091982954
Ms Sarah Mitchell
14 Willow Lane
Kennington
Ashford
TN24 9DE
Date 23 September 2026
Tariff Northwind Standard Variable`;
    const prices = `${letterhead}
Your energy prices are changing on 1 January 2027
Dear Ms Mitchell,
The energy price cap is rising, so we are changing the prices of your tariff.
Yours sincerely,
Northwind Energy`;
    const water = `Stadtwerke Lindenau GmbH
Energiestraße 12
34567 Lindenau
Telefon 05561 7040-0
Vertragskonto 201 384 727
Herrn
Stefan Neumann
Birkenallee 23a
34567 Lindenau
Datum 30.10.2026
Ihr Ansprechpartner Kundenservice
Zählernummer 1ESY8461347768
Unterbrechung der Wasserversorgung am 12.11.2026
Sehr geehrter Herr Neumann,
wegen Bauarbeiten an der Hauptleitung wird die Versorgung zwischen 9 und 15 Uhr unterbrochen.
Mit freundlichen Grüßen`;
    expect(read(prices).event_type?.value).toBe('notice');
    expect(read(water).event_type?.value).toBe('notice');
  });

  it('reads a petrol station slip headed "Rechnung" and paid by card as a receipt', () => {
    const text = `Tankstelle Nordring Hahn GmbH
Nordring 101
34567 Lindenau
St.-Nr. 19/198/54619
Rechnung
Säule 7 Super E10
40,57 l x 1,859 EUR/l 75,42
Kaffee Crema groß 2,50
Gesamtbetrag EUR 77,92
Kartenzahlung Visa 77,92
Beleg-Nr. 81/45670
Datum 21.09.26 Uhrzeit 17:34
Kasse 1
Gute Fahrt!`;
    const result = read(text);
    expect(result.event_type?.value).toBe('receipt');
    expect(result.reference_number?.value).toBe('81/45670');
  });
});

describe('reference number', () => {
  it('gives none for payslips and bank statements', () => {
    const payslip = `Pinecrest Analytics Ltd
Payslip
Employee: James Okafor Employee ID: E83486
Pay date: 30 September 2026
Gross pay £3,400.00
Income tax £420.00
Net pay £2,431.32`;
    const statement = `Volksbank Talheim eG
Kontoauszug 11/2026
IBAN DE32 5206 1303 2826 2324 35
Erstellt am 12.11.2026
Alter Kontostand am 31.10.2026 1.206,38 H
Neuer Kontostand am 12.11.2026 2.439,30 H`;
    const english = `Meridian Bank plc
Account statement
Sort code 30-22-10
Account number 86475105
Statement date 22 August 2026
Balance brought forward £2,068.09
Balance carried forward £4,502.87`;
    expect(read(payslip).reference_number).toBeUndefined();
    expect(read(statement).reference_number).toBeUndefined();
    expect(read(english).reference_number).toBeUndefined();
  });

  it('never takes the company register number', () => {
    const text = `Meridian Bank plc
1 Threadneedle Court, London EC2R 8AY
Date 16 Nov 2026
Welcome to Meridian
Dear Mr Okafor,
Your new current account is now open. Your debit card and PIN will arrive separately.
Yours sincerely,
Customer Experience Team
Meridian Bank plc. Registered in England and
Wales No. 00218844. Authorised by the Prudential Regulation Authority.`;
    const receipt = `QuickFix Auto Repairs Ltd
RECEIPT
Date 20 July 2026
Tyres fitted GBP 231.64
Amount paid GBP 231.64
Paid by cash on 20 July 2026.
Registered in England and Wales No. 06620014`;
    expect(read(text).reference_number).toBeUndefined();
    expect(read(receipt).reference_number).toBeUndefined();
  });

  it('takes the credit note number, not the invoice it refers to', () => {
    const english = `Atlas Office Supplies Inc.
88 Commerce Drive, Chicago, IL 60607
Memo # CM-6295 Date 11/02/2026 Applied to invoice # 172533
CREDIT MEMO
Reference: invoice 172533 dated 09/26/2026
Total credit USD 505.60`;
    const german = `Telenova Deutschland GmbH
Beleg-Nr. GS-4711
Datum 03.09.2026
Gutschrift
Bezug: Rechnung MF-2026-82867966 vom 06.08.2026
Kulanzgutschrift 10,00 €
Gutschriftsbetrag 11,90 €`;
    expect(read(english).reference_number?.value).toBe('CM-6295');
    expect(read(german).reference_number?.value).toBe('GS-4711');
  });

  it('reads the till: Bon-Nr. before the card slip, TRANS#', () => {
    const german = `Drogerie Sonnenschein GmbH
Marktstraße 14, 34567 Lindenau
Zahnpasta 1,95
SUMME EUR 16,19
Kartenzahlung girocard
Terminal-ID 92275898
Trace-Nr. 832251 Beleg 3564
Betrag EUR 16,19
01.11.2026 10:59 Bon-Nr. 9842 Kasse 4
Vielen Dank für Ihren Einkauf!`;
    const english = `Maple Leaf Grocers
Store #12 Reg 3 Cashier JEN
ORG BANANAS 0.94
TOTAL 28.63
VISA ****3907
07/18/2026 3:52 PM TRANS# 503581
AUTH CODE 798732 APPROVED
Thank you for shopping with us!`;
    expect(read(german).reference_number?.value).toBe('9842');
    expect(read(english).reference_number?.value).toBe('503581');
  });

  it('reads an offer code, and a file reference before the customer number', () => {
    const offer = `FibreStream Broadband Inc.
Account number 8583 9034 7583 2503 Offer code FS-UP-0050 Date Aug 25, 2026
An exclusive upgrade offer for you
Monthly price $99.99
Offer ends Dec 31, 2026`;
    const notice = `Brightwater Water Services plc
Our reference BW/WKS/0433
Customer number 960978912
Date 30 July 2026
Planned interruption to your water supply
Dear Mr Okafor,
we will need to turn off your water supply on 8 August 2026 between 9am and 3pm.`;
    expect(read(offer).reference_number?.value).toBe('FS-UP-0050');
    expect(read(notice).reference_number?.value).toBe('BW/WKS/0433');
  });

  it("tolerates OCR marks between label and value and keeps the writer's initials", () => {
    const invoice = `FibreStream Broadband Inc.
. . » Account number 8193 2718 3685 4750
'Daniel Brooks 5 WG Invoice # >> 7613-7151
Statement date Jul 7, 2026
Amount due © $101.87 .`;
    const notice = `Northwind Energy Ltd
: Account number © 6091982954
Date : 23 September 2026
Your energy prices are changing on 1 January 2027`;
    const letter = `Hoffmann Rechtsanwälte
Frau Dr. Unser Zeichen 112/26 HO
Leyla Özdemir Ihr Zeichen –
Goethestraße 112 Datum 22.08.2026
Sehr geehrte Frau Dr. Özdemir,
in der oben genannten Angelegenheit haben wir die Gegenseite angeschrieben.`;
    const price = `Stadtwerke Lindenau GmbH
: . Vertragskonto 201 384.727
Hern Datum 30.10.2026
Preisanpassung zum 01.01.2027`;
    expect(read(invoice).reference_number?.value).toBe('7613-7151');
    expect(read(notice).reference_number?.value).toBe('6091982954');
    expect(read(letter).reference_number?.value).toBe('112/26 HO');
    expect(read(price).reference_number?.value).toBe('201 384 727');
  });

  it('skips a speck read as a short word, a lone capital or a plus sign between label and value', () => {
    const credit = `Fernwerk Kommunikation GmbH
Gutschrift-Nr i GS-40917733
Datum 04.03.2027
Zu Rechnung FK-2027-551201
Gutschrift
Gutschriftsbetrag 12,60 €`;
    const notice = `Harbourside Water Ltd
Account number hiss 5093317720
Date 2 March 2027
Your charges are changing from 1 April 2027`;
    const contract = `Riverbank Fitness Ltd
Membership no: A KX19001
Date 2 March 2027
Membership agreement
Monthly fee GBP 29.99`;
    const parking = `Eastvale District Council
PCN number - + * 'EV20771643
Date 2 March 2027
Penalty charge notice
Penalty charge £70.00`;
    expect(read(credit).reference_number?.value).toBe('GS-40917733');
    expect(read(notice).reference_number?.value).toBe('5093317720');
    expect(read(contract).reference_number?.value).toBe('KX19001');
    expect(read(parking).reference_number?.value).toBe('EV20771643');
  });

  it('keeps a value that starts with letters and does not read a date after a short word as a number', () => {
    const own = `Stadtwerke Obertal
Vertragsnummer VN 4471203
Datum 02.03.2027
Ihr Stromliefervertrag
Monatlicher Abschlag 64,00 €`;
    const single = `Stadtwerke Obertal
Kundennummer K 482910
Rechnungsnr. vom 02.03.2027
Rechnung
Gesamtbetrag 48,10 €`;
    expect(read(own).reference_number?.value).toBe('VN 4471203');
    expect(read(single).reference_number?.value).not.toBe('02.03.2027');
    expect(read(single).reference_number?.value).toBe('K 482910');
  });

  it("does not take the insurance number of a membership certificate as a letter's reference", () => {
    const text = `BKK Nordwest Gesundheit
Kronprinzenstraße 30, 45128 Essen
Versichertennummer W330569934
Datum 01.11.2026
Mitgliedsbescheinigung
Sehr geehrte Damen und Herren,
hiermit bestätigen wir, dass Sie seit dem 01.11.2026 Mitglied der BKK Nordwest Gesundheit sind.
Mit freundlichen Grüßen`;
    expect(read(text).reference_number).toBeUndefined();
  });
});

describe('amount', () => {
  it('takes what a receipt says was paid', () => {
    const english = `Gadget Corner Ltd
Order confirmation and receipt
Order number GC-697945
Order date 24 July 2026
Smartphone case £18.31
65 W USB-C fast charger £31.55
Includes VAT at 20% £10.97
Total paid £65.83`;
    const garage = `Greenfield Motors Ltd
Receipt no. R-29370
Date 3 July 2026
RECEIPT
MOT test class 4 £54.85
Headlamp bulb H7 replaced £18.03
includes VAT at 20% £12.15
Amount paid: £72.88
Paid by debit card on 3 July 2026.`;
    expect(read(english).amount?.value).toEqual({ value: 65.83, currency: 'GBP' });
    expect(read(garage).amount?.value).toEqual({ value: 72.88, currency: 'GBP' });
  });

  it('reads what is left to pay after a deposit when its label is lost', () => {
    const text = `Riverside Dental Clinic
Invoice RDC-61678
Date 21 Aug 2026
Examination and consultation 65.00
Composite filling, posterior 165.00
Treatment total £341.00
Deposit paid 20 Aug 2026 -£50.00
£291.00`;
    expect(read(text).amount?.value).toEqual({ value: 291, currency: 'GBP' });
  });

  it('gives no amount for price tables, rates and figures in passing', () => {
    const german = `Stadtwerke Lindenau GmbH
Vertragskonto 201 384 727
Datum 30.10.2026
Preisanpassung zum 01.01.2027
Preisbestandteil (brutto) bisher ab 01.01.2027
Arbeitspreis 33,51 ct/kWh 35,59 ct/kWh
Grundpreis 12,48 €/Monat 13,68 €/Monat
Sie haben das Recht, Ihren Vertrag zum Zeitpunkt des Wirksamwerdens der Preisänderung zu kündigen.`;
    const english = `Northwind Energy Ltd
Account number 6091982954
Date 23 September 2026
Your energy prices are changing on 1 January 2027
Electricity Current price New price
Unit rate (p/kWh) 24.60 26.02
Standing charge (p/day) 53.35 55.10
Based on your usage, your estimated annual cost will go from GBP 943.48 to GBP 1,005.27.`;
    const letter = `Hoffmann Rechtsanwälte
Unser Zeichen 112/26 HO
Datum 22.08.2026
Sehr geehrte Frau Dr. Özdemir,
wir haben die Gegenseite aufgefordert, die Mietkaution in Höhe von 1.500,00 € nebst Zinsen abzurechnen.
Mit freundlichen Grüßen`;
    const confirmation = `Pinecrest Analytics Ltd
Date 23 Oct 2026
Confirmation of employment
To whom it may concern,
James Okafor has been employed as a Senior Data Analyst since 5 Jul 2023 (37.5 hours per week).
Yours faithfully,`;
    for (const text of [german, english, letter, confirmation])
      expect(read(text).amount, text.slice(0, 40)).toBeUndefined();
  });

  it('takes the sum a reminder demands', () => {
    const text = `Elektro Brandt e.K.
Kundennummer 189962
Datum 25.08.2026
2. Mahnung
Sehr geehrter Herr Neumann,
unsere Rechnung Nr. RE-2026-0781 vom 14.07.2026 ist noch offen.
Rechnungsbetrag EUR 424,85
Mahngebühr EUR 5,00
Mahnbetrag EUR 429,85
Bitte überweisen Sie den Betrag bis zum 04.09.2026.`;
    const english = `Skylink Mobile Ltd
Invoice SKY-INV-7618383
Date 17 August 2026
Final reminder: your payment is overdue
Arrears £26.05
Late payment fee £5.00
Please pay by 24 August 2026.`;
    expect(read(text).amount?.value).toEqual({ value: 429.85, currency: 'EUR' });
    expect(read(english).amount?.value).toEqual({ value: 26.05, currency: 'GBP' });
  });

  it('still takes a sum a letter asks for', () => {
    const text = `Stadt Lindenau
Kassenzeichen 4711-0815
Datum 02.11.2026
Sehr geehrter Herr Neumann,
bitte zahlen Sie 45,00 € bis zum 20.11.2026 auf das unten genannte Konto.
Mit freundlichen Grüßen`;
    expect(read(text).amount?.value).toEqual({ value: 45, currency: 'EUR' });
  });

  it('takes the monthly premium including insurance tax and the recurring fee of a contract', () => {
    const policy = `Justitia Rechtsschutz-Versicherung AG
Versicherungsschein Nr. RS-9122-5762
Datum 21.08.2026
Versicherungsschein Rechtsschutzversicherung
Selbstbeteiligung EUR 250,00
Monatsbeitrag inkl. Versicherungsteuer EUR 31,98
Der Vertrag verlängert sich um jeweils ein Jahr. Der Beitrag für ein Jahr beträgt EUR 383,76.`;
    const contract = `Skylink Mobile Ltd
Contract number SKY-8012874
Date 15 Sep 2026
Mobile Service Agreement
Monthly charge £18.00
One-off connection charge £0.00
Annual price rise £1.80 per month each April`;
    expect(read(policy).amount?.value).toEqual({ value: 31.98, currency: 'EUR' });
    expect(read(contract).amount?.value).toEqual({ value: 18, currency: 'GBP' });
  });

  it('does not take the tax after a rate with a speck before its percent sign for what is left to pay', () => {
    const slip = `Tankstelle Ostring
Rechnung
Diesel 40,00 l x 1,550 EUR/l 62,00 A
Gesamtbetrag EUR 62,00
Kartenzahlung 62,00
Netto 52,10
MwSt A 19,00.% 9,90
Beleg-Nr. 31/4410
Datum 04.03.27`;
    expect(read(ocr(slip)).amount?.value).toEqual({ value: 62, currency: 'EUR' });
  });

  it('reads a total whose decimal comma OCR lost as the same amount printed with cents beside it', () => {
    const card = `Sparkasse Obertal
Kreditkartenabrechnung
Abrechnungsdatum 14.03.2027
Kreditrahmen 2.500,00 €
03.03.2027 Buchhandlung am Markt 45,10
05.03.2027 Parkhaus Zentrum 12,40
Summe Umsätze 5750 €
Abrechnungsbetrag 57,50 €`;
    expect(read(ocr(card)).amount?.value).toEqual({ value: 57.5, currency: 'EUR' });
    // Different digits, or the amount with cents far away: the whole number stays what it says.
    const rent = `Hausverwaltung Kern GmbH
Rechnung Nr. HK-2027-118
Datum 02.02.2027
Kaution 12,40 €
Jahresmiete gesamt 5750 €`;
    expect(read(rent).amount?.value).toEqual({ value: 5750, currency: 'EUR' });
    const far = `Hausverwaltung Kern GmbH
Rechnung Nr. HK-2027-119
Datum 02.02.2027
Reinigung 57,50 €
Hausmeister 80,00 €
Winterdienst 90,00 €
Gartenpflege 95,00 €
Gesamtbetrag 5750 €`;
    expect(read(far).amount?.value).toEqual({ value: 5750, currency: 'EUR' });
  });
});

describe('due date', () => {
  it('is the end of the fixed term of a contract', () => {
    const cases: Array<[string, string]> = [
      [
        `Telenova Deutschland GmbH
Vertragsnummer VN-98503526
Datum 07.10.2026
Auftragsbestätigung und Vertragszusammenfassung
Monatlicher Grundpreis EUR 39,99
Vertragsbeginn 10.10.2026
Mindestvertragslaufzeit 24 Monate
Vertragsende frühestens 09.10.2028`,
        '2028-10-09',
      ],
      [
        `Vitalis Fitness GmbH
Mitgliedsnummer 101152
Datum 10.10.2026
Mitgliedschaftsvertrag
Monatsbeitrag 44,90 €
Erstlaufzeit 12 Monate
Ende der Erstlaufzeit 31.10.2027`,
        '2027-10-31',
      ],
      [
        `Skylink Mobile Ltd
Contract number SKY-8012874
Date 15 Sep 2026
Mobile Service Agreement
Monthly charge £18.00
Minimum term 24 months
Minimum term ends 15 Sep 2028`,
        '2028-09-15',
      ],
      [
        `Oakridge Property Management LLC
Residential Lease Agreement L-2026-876
Date: October 1, 2026
2. Term
The term of this Lease begins on Nov 1, 2026 and ends on Oct 31, 2027. Thereafter the tenancy continues month to month.
Tenant shall pay monthly rent of $1,925.00, due in advance on the first day of each month.`,
        '2027-10-31',
      ],
    ];
    for (const [text, due] of cases) expect(read(text).due_date?.value, text.slice(0, 30)).toBe(due);
  });

  it('reads "Ende" beside a date as the term, but not the end of a probation period', () => {
    const supply = `Stadtwerke Musterstadt
Vertragsnummer 55-1234
Datum 01.12.2026
Stromliefervertrag
Beginn 01.01.2027 Ende 31.12.2028`;
    const employment = `Muster GmbH
Arbeitsvertrag
Datum 01.12.2026
Beginn des Arbeitsverhältnisses 01.01.2027
Ende der Probezeit 30.06.2027
Monatliches Bruttogehalt 4.200,00 €`;
    expect(read(supply).due_date?.value).toBe('2028-12-31');
    expect(read(employment).due_date).toBeUndefined();
  });

  it('is the end of the insured period of a policy, not the first premium debit', () => {
    const cases: Array<[string, string]> = [
      [
        `Nordlicht Versicherung AG
Versicherungsschein-Nr. HR-3289-8938947
Datum 26.10.2026
Versicherungsschein Hausratversicherung
Versicherungsbeginn 01.11.2026, 0:00 Uhr
Ablauf 31.10.2027, 24:00 Uhr
Jahresbeitrag EUR 201,17
Der Erstbeitrag wird am 15.11.2026 von Ihrem Konto abgebucht.`,
        '2027-10-31',
      ],
      [
        `Harbourside Insurance Ltd
Policy number HH-6888447
Date 17 July 2026
Home Insurance – Policy Schedule
Period of insurance 26 July 2026 to 25 July 2027 (both dates inclusive)
Premium GBP 282.98`,
        '2027-07-25',
      ],
      [
        `Nordlicht Versicherung AG
Versicherungsschein-Nr. KF-70684133
Datum 19.11.2026
Versicherungsschein Kraftfahrtversicherung
Versicherungszeitraum 01.01.2027 bis 31. 12:2027
Gesamtbeitrag jährlich 394,15 €`,
        '2027-12-31',
      ],
    ];
    for (const [text, due] of cases) expect(read(text).due_date?.value, text.slice(0, 40)).toBe(due);
  });

  it("is the end of an offer's validity, written as a date or counted from the offer date", () => {
    const cases: Array<[string, string]> = [
      [
        `Elektro Brandt e.K.
Angebot Nr. AN-2026-521
Datum 04.11.2026
Angebotssumme brutto 2.113,79 €
Dieses Angebot ist gültig bis 04.12.2026.`,
        '2026-12-04',
      ],
      [
        `Möbelhaus Krämer GmbH
Angebot ANG-025830
Angebotsdatum 18.07.2026
Gesamtbetrag 2.191,08 €
Dieses Angebot ist 14 Tage ab Angebotsdatum gültig.`,
        '2026-08-01',
      ],
      [
        `Atlas Office Supplies Inc.
Quotation Q-8267
Date: September 14, 2026
Total USD 6,864.54
This quotation is valid for 30 days from the date above.`,
        '2026-10-14',
      ],
      [
        `FibreStream Broadband Inc.
Offer code FS-UP-0050 Date Aug 25, 2026
An exclusive upgrade offer for you
Monthly price $99.99
Offer ends Dec 31, 2026`,
        '2026-12-31',
      ],
    ];
    for (const [text, due] of cases) expect(read(text).due_date?.value, text.slice(0, 30)).toBe(due);
  });

  it('reads direct debit announcements, "must be paid by" and statements that ask for payment', () => {
    const cases: Array<[string, string]> = [
      [
        `Telenova Deutschland GmbH
Rechnungsnummer MF-2026-78540863
Rechnungsdatum 07.10.2026
Ihre Mobilfunkrechnung
Rechnungsbetrag EUR 35,61
Den Rechnungsbetrag von EUR 35,61 buchen wir am 14.10.2026 per Lastschrift von Ihrem Konto ab.`,
        '2026-10-14',
      ],
      [
        `Ashford Borough Council
Penalty Charge Notice
PCN number AS40944979
Date of notice 7 October 2026
Penalty charge £70.00
The penalty charge of £70.00 must be paid by 4 November 2026.`,
        '2026-11-04',
      ],
      [
        `Atlas Office Supplies Inc.
Statement of Account
Statement date September 1, 2026
Balance due 1,684.72
Please remit the balance due by September 30, 2026.`,
        '2026-09-30',
      ],
      [
        `Volksbank Talheim eG
Kreditkartenabrechnung
Abrechnungsdatum 27.07.2026
Neuer Saldo 797,97 EUR
Der Abrechnungsbetrag wird am 02.08.2026 von Ihrem Girokonto eingezogen.`,
        '2026-08-02',
      ],
    ];
    for (const [text, due] of cases) expect(read(text).due_date?.value, text.slice(0, 30)).toBe(due);
  });

  it('counts payment terms in weeks, months and words', () => {
    const invoice = (terms: string): string | undefined =>
      read(`Elektro Brandt e.K.
Rechnung Nr. RE-2026-0253
Rechnungsdatum 15.12.2026
Rechnungsbetrag 461,13 €
${terms}`).due_date?.value;
    expect(invoice('Zahlbar innerhalb von zwei Wochen ohne Abzug.')).toBe('2026-12-29');
    expect(invoice('Der Betrag ist zahlbar binnen vierzehn Tagen nach Rechnungserhalt.')).toBe('2026-12-29');
    expect(invoice('Payment is due within one month of the invoice date.')).toBe('2027-01-15');
  });
});

describe('OCR noise in dates', () => {
  it('reads a date whose second dot came out as a colon or comma', () => {
    const iso = (text: string): string[] =>
      findDates(makeDoc(text), { monthFirst: false, today: TODAY }).map((d) => d.iso);
    expect(iso('Versicherungszeitraum 01.01.2027 bis 31. 12:2027')).toEqual(['2027-01-01', '2027-12-31']);
    expect(iso('Datum 15.12,2026')).toEqual(['2026-12-15']);
    expect(iso('Beginn 10:30 Uhr, Raum 12:20')).toEqual([]);
  });

  it('reads a written-out date with a hyphen before the year', () => {
    const iso = (text: string): string[] =>
      findDates(makeDoc(text), { monthFirst: false, today: TODAY }).map((d) => d.iso);
    expect(iso('Der Betrag ist fällig am 14. März-2027.')).toEqual(['2027-03-14']);
    expect(iso('Payment due 9 April - 2027')).toEqual(['2027-04-09']);
    expect(iso('Saison März-April 2027, Ausgabe 3. Mai-20271, Nr. 4 Juni-12')).toEqual([]);
  });
});

describe('label blocks read column by column', () => {
  it('pairs a block of labels with the block of their values below', () => {
    const lines = `Nordlicht Versicherung AG · Hafenallee 5 · 20457 Hamburg
Versicherungsschein-Nr.
Frau Dr.\tVermittler-Nr.
Leyla Özdemir\tDatum
Goethestraße 112
37073 Göttingen

Telefon 040 3290-7700

HR-3289-8938947
0855/384
26.10.2026`.split('\n');
    expect(rejoinColumns(lines, TODAY)).toEqual([
      'Versicherungsschein-Nr. HR-3289-8938947',
      'Vermittler-Nr. 0855/384',
      'Datum 26.10.2026',
    ]);
  });

  it('skips values that do not fit their labels and lines that are not labels', () => {
    const lines = ocr(`Policy number
Member ID
Issue date
Policy Declarations - Individual Health Plan
Coverage period
Annual deductible
Monthly premium
Jan 1, 2027 - Dec 31, 2027
$2,500.00
$397.04
P.O. Box 44190
Tel 1-888-555-0110
EHP-350348507
EVG945892429
Oct 21, 2026`).split('\n');
    expect(rejoinColumns(lines, TODAY)).toEqual([
      'Policy number EHP-350348507',
      'Member ID EVG945892429',
      'Issue date Oct 21, 2026',
      'Coverage period Jan 1, 2027 - Dec 31, 2027',
      'Annual deductible $2,500.00',
      'Monthly premium $397.04',
    ]);
  });

  it('leaves address blocks and unmatched labels alone', () => {
    expect(rejoinColumns(['Familie', 'Klaus und Renate Lehmann', 'Am Mühlbach 3', '34560 Fritzlar'], TODAY)).toEqual(
      [],
    );
    expect(
      rejoinColumns(
        ['Rechnungsnummer', 'Rechnungsdatum', 'Sehr geehrte Damen und Herren,', 'anbei Ihre Rechnung.'],
        TODAY,
      ),
    ).toEqual([]);
  });

  it('lets the extractors read the paired values', () => {
    const text = ocr(`Evergreen Health Insurance Inc.
Maria Alvarez
1907 Queen Anne Ave N
Seattle, WA 98109
Policy number
Member ID
Issue date
Policy Declarations - Individual Health Plan
Coverage period
Annual deductible
Out-of-pocket maximum
Monthly premium
Jan 1, 2027 - Dec 31, 2027
$2,500.00
$7,000.00
$397.04
EHP-350348507
EVG945892429
Oct 21, 2026
Your first premium payment is due by Dec 22, 2026.`);
    const result = read(text);
    expect(result.event_type?.value).toBe('policy');
    expect(result.reference_number?.value).toBe('EHP-350348507');
    expect(result.amount?.value).toEqual({ value: 397.04, currency: 'USD' });
    expect(result.document_date?.value).toBe('2026-10-21');
    expect(result.due_date?.value).toBe('2027-12-31');
  });
});
