/** Further documents of other shapes and origins: bills from abroad, footers as the only letterhead, odd terms. */

import type { Sample } from './sample-types.ts';

export const FURTHER_SAMPLES: Sample[] = [
  {
    name: 'US software invoice to a German company with a discount line',
    filename: 'invoice.pdf',
    text: `Northstar Software Inc.
500 Market Street, Suite 300
San Francisco, CA 94105
INVOICE
Invoice Number: NS-2026-0912
Invoice Date: December 15th, 2026
Due Date: January 14th, 2027
Bill To
Contoso Analytics GmbH
Speicherstraße 1
60327 Frankfurt
Germany
Description Amount
Annual subscription Pro plan (10 seats) USD 4,800.00
Discount (10%) -USD 480.00
Amount Due (USD) $4,320.00
Wire transfer: JP Morgan Chase, Account 123456789, Routing 021000021`,
    expect: {
      event_type: 'invoice',
      document_date: '2026-12-15',
      due_date: '2027-01-14',
      amount: { value: 4320, currency: 'USD' },
      reference_number: 'NS-2026-0912',
      sender_name: 'Northstar Software Inc.',
      buyer_name: 'Contoso Analytics GmbH',
      language: 'en',
    },
  },
  {
    name: 'broadcasting fee assessment with surcharge',
    filename: 'scan0001.pdf',
    text: `Rundfunk
ARD ZDF Deutschlandradio
Beitragsservice
50656 Köln
Herrn
Lukas Zimmermann
Bergstraße 2
04109 Leipzig
Festsetzungsbescheid
Beitragsnummer 123 456 789
Datum 02.01.2027
Sehr geehrter Herr Zimmermann,
für die Zeit vom 01.07.2026 bis 30.09.2026 setzen wir rückständige Rundfunkbeiträge fest.
Rundfunkbeiträge 55,08 €
Säumniszuschlag 8,00 €
Gesamtbetrag 63,08 €
Bitte zahlen Sie den Gesamtbetrag bis zum 16.01.2027.`,
    expect: {
      event_type: 'notice',
      document_date: '2027-01-02',
      due_date: '2027-01-16',
      amount: { value: 63.08, currency: 'EUR' },
      reference_number: '123 456 789',
      buyer_name: 'Lukas Zimmermann',
    },
  },
  {
    name: 'photographer invoice with deposit and UK day-first due date',
    filename: 'invoice-wilkins.pdf',
    text: `Invoice
Date: 2026-12-15
From: Jordan Blake Photography
jordan@blakephoto.co.uk
To: Sarah & Tom Wilkins
Wedding photography package £1,450.00
Deposit received -£300.00
Balance £1,150.00
Payment is due by 15/01/2027.
Bank: Monzo, sort code 04-00-04, account 12345678`,
    expect: {
      event_type: 'invoice',
      document_date: '2026-12-15',
      due_date: '2027-01-15',
      amount: { value: 1150, currency: 'GBP' },
      sender_name: 'Jordan Blake Photography',
      buyer_name: 'Sarah & Tom Wilkins',
    },
  },
  {
    name: 'garage invoice with several numbers on one line',
    filename: 'scan_0007.pdf',
    text: `Autohaus Lindner KG
Werkstatt · Verkauf · Service
Robert-Bosch-Str. 9
71229 Leonberg
Kunde: Herr Markus Frey, Seestraße 3, 71229 Leonberg
Re.-Nr. 48213 Kd.-Nr. 10772 Auftrags-Nr. W-5531
Datum 07.01.2027
Fahrzeug: BMW 320d, Kennzeichen BB-MF 320, km-Stand 84.512
Inspektion nach Herstellervorgabe 289,00
Bremsbeläge vorne erneuert 164,30
Motoröl 5W-30, 5,2 l 78,52
Netto 531,82
MwSt. 19 % 101,05
Endbetrag EUR 632,87
Fälligkeitsdatum: 21.01.2027
Vielen Dank für Ihren Auftrag!`,
    expect: {
      event_type: 'invoice',
      document_date: '2027-01-07',
      due_date: '2027-01-21',
      amount: { value: 632.87, currency: 'EUR' },
      reference_number: '48213',
      sender_name: 'Autohaus Lindner KG',
      buyer_name: 'Markus Frey',
      title: 'Rechnung 48213 – Autohaus Lindner KG',
    },
  },
  {
    name: 'holiday flat invoice with down payment and a term counted back from arrival',
    filename: 'FeWo.pdf',
    text: `Rechnung
Ferienwohnung Seeblick · Inhaberin Petra Janssen · Deichstraße 5 · 26548 Norderney
An: Familie Krämer, Hauptstraße 10, 33602 Bielefeld
Rechnungsnummer: FW-2026-088
Aufenthalt: 18.08.2026 – 25.08.2026 (7 Nächte)
7 Nächte à 95,00 € 665,00 €
Endreinigung 60,00 €
Kurtaxe 2 Erw. x 7 Nächte à 3,00 € 42,00 €
Gesamt 767,00 €
Anzahlung erhalten am 10.05.2026 -200,00 €
Restbetrag 567,00 €
Der Restbetrag ist zahlbar bis spätestens 14 Tage vor Anreise.
Norderney, 20.06.2026`,
    expect: {
      event_type: 'invoice',
      document_date: '2026-06-20',
      amount: { value: 567, currency: 'EUR' },
      reference_number: 'FW-2026-088',
      sender_name: 'Ferienwohnung Seeblick',
      buyer_name: 'Krämer',
    },
  },
  {
    name: 'Australian tax invoice with day-first date and AUD',
    filename: 'ti.pdf',
    text: `TAX INVOICE
Sunrise Catering Pty Ltd ABN 12 345 678 901
Invoice: 10023 Date: 03/02/2027
Customer: Harbour View Events
Catering for 120 guests AUD 5,400.00
GST AUD 540.00
Total AUD 5,940.00
Due within 7 days`,
    expect: {
      event_type: 'invoice',
      document_date: '2027-02-03',
      due_date: '2027-02-10',
      amount: { value: 5940, currency: 'AUD' },
      reference_number: '10023',
      sender_name: 'Sunrise Catering Pty Ltd',
      buyer_name: 'Harbour View Events',
    },
  },
  {
    name: 'mail-order invoice whose sender is only in the footer and whose VAT is mentioned in a sentence',
    filename: 'IMG_0815.jpg',
    text: `Frau
Claudia Richter
Parkallee 44
28209 Bremen
Ihre Rechnung vom 05.01.2027
Rechnungsnummer 9912003344
Kundennummer 4400112233
Sehr geehrte Frau Richter,
vielen Dank für Ihre Bestellung. Hiermit berechnen wir Ihnen folgende Artikel:
Art.-Nr. Artikel Menge Preis
100234 Winterjacke Damen, Gr. 38 1 129,95
100871 Schal Wolle 2 39,90
Warenwert 169,85 €
Versandkosten 4,95 €
Rechnungsbetrag 174,80 €
Im Rechnungsbetrag sind 27,91 € Mehrwertsteuer enthalten.
Bitte überweisen Sie den Rechnungsbetrag bis zum 19.01.2027.
Modehaus Kranich GmbH · Am Wall 120 · 28195 Bremen · Geschäftsführer: Jan Kranich · HRB 12345 HB`,
    expect: {
      event_type: 'invoice',
      document_date: '2027-01-05',
      due_date: '2027-01-19',
      amount: { value: 174.8, currency: 'EUR' },
      reference_number: '9912003344',
      sender_name: 'Modehaus Kranich GmbH',
      buyer_name: 'Claudia Richter',
    },
  },
  {
    name: 'small-business invoice with page markers and the date at the end',
    filename: 'Seite1.pdf',
    text: `Seite 1 von 2
RECHNUNG Nr. 2026-118
Grafikdesign Lisa Marx
Kreuzbergstr. 30, 10965 Berlin
lisa@marx-design.de
Steuernummer: 21/345/67890
Kleinunternehmer gemäß § 19 UStG, daher keine Umsatzsteuer.
Kunde:
Café Morgenrot UG (haftungsbeschränkt)
Oranienstraße 8
10999 Berlin
Leistungszeitraum: November 2026
Logo-Entwicklung pauschal 850,00 €
Gesamtbetrag: 850,00 €
Zahlbar innerhalb von 14 Tagen ab Rechnungsdatum ohne Abzug.
Rechnungsdatum: 30.11.2026
Seite 2 von 2`,
    expect: {
      event_type: 'invoice',
      document_date: '2026-11-30',
      due_date: '2026-12-14',
      amount: { value: 850, currency: 'EUR' },
      reference_number: '2026-118',
      sender_name: 'Grafikdesign Lisa Marx',
      buyer_name: 'Café Morgenrot UG (haftungsbeschränkt)',
    },
  },
  {
    name: 'securities account statement',
    filename: 'depot.pdf',
    text: `Volksbank Mittelhessen eG
Depotauszug per 31.12.2026
Depotnummer 4711 0815 00
Depotinhaber: Dr. Anna Berg
Bestand Wertpapier Kurs Kurswert EUR
25 Stk. iShares Core MSCI World 98,12 2.453,00
10 Stk. Siemens AG 180,50 1.805,00
Depotwert gesamt 4.258,00 EUR`,
    expect: {
      event_type: 'statement',
      document_date: '2026-12-31',
      amount: { value: 4258, currency: 'EUR' },
      sender_name: 'Volksbank Mittelhessen eG',
      category: 'Bank',
      language: 'de',
    },
  },
  {
    name: 'termination letter written by a customer',
    filename: 'kuendigung.pdf',
    text: `Sehr geehrte Damen und Herren,
hiermit kündige ich meinen Vertrag mit der Kundennummer 556677 fristgerecht zum nächstmöglichen Zeitpunkt.
Bitte bestätigen Sie mir die Kündigung schriftlich.
Mit freundlichen Grüßen
Sebastian Kurz
Leipzig, 04.01.2027`,
    expect: {
      event_type: 'notice',
      document_date: '2027-01-04',
      sender_name: 'Sebastian Kurz',
      title: 'Kündigung 556677 – Sebastian Kurz',
    },
  },
  {
    name: 'invoice whose first address block is the recipient and whose sender is only in the legal footer',
    filename: 'scan_0099.pdf',
    text: `Müller Bau GmbH
Hauptstraße 5
50667 Köln
Rechnung Nr. 7781
Datum: 12.01.2027
Lieferung von Baustoffen laut Lieferschein 5521
Nettobetrag 2.000,00 €
USt. 19 % 380,00 €
Rechnungsbetrag 2.380,00 €
Zahlbar bis 26.01.2027.
Baustoffhandel Schneider GmbH · Industriestraße 3 · 50829 Köln
Geschäftsführer: Peter Schneider · Amtsgericht Köln HRB 98765 · USt-IdNr. DE223344556`,
    expect: {
      event_type: 'invoice',
      document_date: '2027-01-12',
      due_date: '2027-01-26',
      amount: { value: 2380, currency: 'EUR' },
      reference_number: '7781',
      sender_name: 'Baustoffhandel Schneider GmbH',
    },
  },
  {
    name: 'invoice with two unmarked address blocks: letterhead, then recipient',
    filename: 'scan_0100.pdf',
    text: `Baustoffhandel Schneider GmbH
Industriestraße 3
50829 Köln
Müller Bau GmbH
Hauptstraße 5
50667 Köln
Rechnung Nr. 7781
Datum: 12.01.2027
Rechnungsbetrag 2.380,00 €`,
    expect: {
      event_type: 'invoice',
      sender_name: 'Baustoffhandel Schneider GmbH',
      buyer_name: 'Müller Bau GmbH',
      amount: { value: 2380, currency: 'EUR' },
    },
  },
];
