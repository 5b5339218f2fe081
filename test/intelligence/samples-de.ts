/** German sample documents as a PDF text layer delivers them, with the fields a person would read from them. */

import type { Sample } from './sample-types.ts';

export const GERMAN_SAMPLES: Sample[] = [
  {
    name: 'utility invoice with return address, period, subtotal and VAT',
    filename: 'scan_0042.pdf',
    text: `Stadtwerke München GmbH · Emmy-Noether-Straße 2 · 80992 München
Herrn
Max Mustermann
Lindenweg 12
80331 München
Stadtwerke München GmbH
Kundenservice
Telefon 089 2361-0
www.swm.de
Rechnung
Kundennummer: 100234567
Rechnungsnummer: 2026-4711
Rechnungsdatum: 15.12.2026
Leistungszeitraum: 01.11.2026 - 30.11.2026
Sehr geehrter Herr Mustermann,
für Ihre Stromlieferung berechnen wir Ihnen:
Pos. Bezeichnung Menge Einzelpreis Gesamt
1 Arbeitspreis 350 kWh 0,32 € 112,00 €
2 Grundpreis 1 Monat 12,50 € 12,50 €
Zwischensumme 124,50 €
zzgl. 19 % MwSt. 23,66 €
Gesamtbetrag 148,16 €
Zahlbar bis 30.12.2026 ohne Abzug.
Bitte überweisen Sie den Betrag unter Angabe der Rechnungsnummer auf unser Konto.
IBAN DE89 3704 0044 0532 0130 00 · BIC COBADEFFXXX
Mit freundlichen Grüßen
Ihre Stadtwerke München
Stadtwerke München GmbH · Geschäftsführer: Dr. Florian Bieberbach · Amtsgericht München HRB 121920 · USt-IdNr. DE129521671`,
    expect: {
      event_type: 'invoice',
      document_date: '2026-12-15',
      due_date: '2026-12-30',
      amount: { value: 148.16, currency: 'EUR' },
      reference_number: '2026-4711',
      sender_name: 'Stadtwerke München GmbH',
      buyer_name: 'Max Mustermann',
      language: 'de',
      title: 'Rechnung 2026-4711 – Stadtwerke München GmbH',
      category: 'Rechnungen',
      tags: ['rechnung', 'stadtwerke', '2026'],
    },
  },
  {
    name: 'craftsman invoice to a company, header row of numbers, relative payment term',
    filename: 'IMG_20261218_101532.jpg',
    text: `Elektro Berger GmbH & Co. KG
Industriestraße 7
86150 Augsburg
Tel. 0821 123456 · info@elektro-berger.de
Rechnungsempfänger:
Bäckerei Sonnenschein GmbH
z. Hd. Frau Anna Koch
Marktplatz 3
86152 Augsburg
RECHNUNG
Rechnungs-Nr. Kunden-Nr. Datum
RE-26-1187 K-20931 18.12.2026
Leistungsdatum: 10.12.2026
Auftrag vom 02.12.2026: Austausch Unterverteilung Backstube
Pos Menge Einheit Bezeichnung Einzelpreis Gesamtpreis
1 6 Std. Elektromeister 78,00 468,00
2 1 Stk. Unterverteilung 3-reihig 389,90 389,90
3 1 psch. Kleinmaterial 45,10 45,10
Nettobetrag 903,00 €
Umsatzsteuer 19 % 171,57 €
Rechnungsbetrag 1.074,57 €
Zahlungsbedingungen: 14 Tage 2 % Skonto, 30 Tage netto.
Bankverbindung: Stadtsparkasse Augsburg · IBAN DE12 7205 0000 0000 1234 56
Steuernummer 103/123/45678 · USt-IdNr. DE811234567`,
    expect: {
      event_type: 'invoice',
      document_date: '2026-12-18',
      due_date: '2027-01-17',
      amount: { value: 1074.57, currency: 'EUR' },
      reference_number: 'RE-26-1187',
      sender_name: 'Elektro Berger GmbH & Co. KG',
      buyer_name: 'Bäckerei Sonnenschein GmbH',
      language: 'de',
      title: 'Rechnung RE-26-1187 – Elektro Berger GmbH & Co. KG',
    },
  },
  {
    name: 'invoice with labels above values and a written-out date',
    filename: 'Telefonrechnung Dezember.pdf',
    text: `FunkNetz Mobil AG
Postfach 10 20 30
40213 Düsseldorf
Frau
Erika Musterfrau
Am Anger 5 a
04109 Leipzig
Ihre Mobilfunkrechnung
Düsseldorf, 15. Dezember 2026
Rechnungsnummer
M-0099123456
Kundennummer
7712345
Monatliche Grundgebühr Tarif Flex M 19,99 €
Verbindungen außerhalb des Pakets 4,20 €
Summe netto 20,33 €
Umsatzsteuer 19 % 3,86 €
Zu zahlender Betrag
24,19 €
Der Rechnungsbetrag wird am 22.12.2026 von Ihrem Konto abgebucht.
Gläubiger-ID DE98ZZZ09999999999 · Mandatsreferenz 7712345-01
FunkNetz Mobil AG · Vorstand: Dr. Jana Roth · Sitz Düsseldorf · HRB 55555`,
    expect: {
      event_type: 'invoice',
      document_date: '2026-12-15',
      due_date: '2026-12-22',
      amount: { value: 24.19, currency: 'EUR' },
      reference_number: 'M-0099123456',
      sender_name: 'FunkNetz Mobil AG',
      buyer_name: 'Erika Musterfrau',
      language: 'de',
      title: 'Mobilfunkrechnung M-0099123456 – FunkNetz Mobil AG',
    },
  },
  {
    name: 'credit note referring to the original invoice',
    filename: 'gutschrift.pdf',
    text: `Technikhaus Wagner e.K. · Bahnhofstr. 14 · 90402 Nürnberg
Herrn Jonas Weber
Kirchgasse 2
90403 Nürnberg
Gutschrift
Gutschrift-Nr.: GS-2027-0007
Datum: 08.01.2027
Kundennummer: 55012
Bezug: Rechnung Nr. 2026-3312 vom 20.12.2026
Sehr geehrter Herr Weber,
für die Rücksendung des Artikels schreiben wir Ihnen gut:
1 Bluetooth-Lautsprecher 84,03 €
zzgl. 19 % USt 15,97 €
Gutschriftsbetrag 100,00 €
Der Betrag wird innerhalb von 5 Werktagen auf Ihr Konto erstattet.
Mit freundlichen Grüßen
Technikhaus Wagner e.K.`,
    expect: {
      event_type: 'credit_note',
      document_date: '2027-01-08',
      amount: { value: 100, currency: 'EUR' },
      reference_number: 'GS-2027-0007',
      sender_name: 'Technikhaus Wagner e.K.',
      buyer_name: 'Jonas Weber',
      title: 'Gutschrift GS-2027-0007 – Technikhaus Wagner e.K.',
      tags: ['gutschrift', 'technikhaus', '2027'],
    },
  },
  {
    name: 'supermarket receipt with cash given and change',
    filename: 'kassenbon.jpg',
    text: `Frischmarkt Huber e.K.
Hauptstraße 88
83022 Rosenheim
UID Nr.: DE287654321
BIO VOLLMILCH 1,5% 1,29 A
ROGGENBROT 750G 2,79 A
BANANEN 1,234 kg x 1,99 2,46 A
KAFFEE GEMAHLEN 500G 6,99 A
SPUELMITTEL 1,49 B
--------------------------------
SUMME EUR 15,02
Geg. Bar EUR 20,00
Rückgeld EUR 4,98
Steuer % Netto Steuer Brutto
A= 7,0% 12,62 0,88 13,50
B= 19,0% 1,25 0,24 1,49
15.12.2026 18:42 Bon-Nr. 4711 Kasse 3
TSE-Signatur: 9f8a7b6c5d4e
Vielen Dank für Ihren Einkauf!`,
    expect: {
      event_type: 'receipt',
      document_date: '2026-12-15',
      amount: { value: 15.02, currency: 'EUR' },
      sender_name: 'Frischmarkt Huber e.K.',
      reference_number: '4711',
    },
    absent: ['due_date'],
  },
  {
    name: 'payslip with gross pay, deductions and payout',
    filename: 'Entgeltabrechnung_2026_12.pdf',
    text: `Muster Software GmbH · Sonnenallee 1 · 12045 Berlin
Herrn
Felix Schneider
Wiesenweg 9
10115 Berlin
Abrechnung der Brutto/Netto-Bezüge für Dezember 2026
Personalnummer: 00815 Eintritt: 01.04.2021 Steuerklasse: 1 Geburtsdatum: 12.03.1990
Gehalt 4.100,00
Vermögenswirksame Leistungen AG-Anteil 40,00
Gesamtbrutto 4.140,00
Lohnsteuer 612,41
Solidaritätszuschlag 0,00
Kirchensteuer 49,00
Krankenversicherung 340,52
Rentenversicherung 385,02
Arbeitslosenversicherung 53,82
Pflegeversicherung 78,66
Nettoverdienst 2.620,57
Vermögenswirksame Leistung an Bausparkasse 40,00
Auszahlungsbetrag 2.580,57
Überweisung auf IBAN DE44 1001 0010 0123 4567 89
Erstellt am 22.12.2026`,
    expect: {
      event_type: 'payslip',
      document_date: '2026-12-22',
      amount: { value: 2580.57, currency: 'EUR' },
      sender_name: 'Muster Software GmbH',
      buyer_name: 'Felix Schneider',
      category: 'Gehalt',
      tags: ['gehaltsabrechnung', 'muster', '2026'],
    },
    // The personnel number identifies the employee, not the document.
    absent: ['due_date', 'reference_number'],
  },
  {
    name: 'tenancy agreement signed at a place and date',
    filename: 'Mietvertrag Wohnung Lindenstraße.pdf',
    text: `Mietvertrag über Wohnraum
Zwischen
Hausverwaltung Krause GmbH, Lindenstraße 40, 50674 Köln
– nachfolgend Vermieter genannt –
und
Frau Lena Hoffmann, derzeit wohnhaft Gartenweg 3, 50667 Köln
– nachfolgend Mieter genannt –
wird folgender Vertrag geschlossen:
§ 1 Mietsache
Vermietet wird die Wohnung im 2. OG links, Lindenstraße 40, 50674 Köln, bestehend aus 3 Zimmern, Küche, Bad.
§ 2 Mietzeit
Das Mietverhältnis beginnt am 01.02.2027 und läuft auf unbestimmte Zeit.
§ 3 Miete
Die monatliche Miete beträgt:
Grundmiete 950,00 €
Betriebskostenvorauszahlung 220,00 €
Gesamtmiete 1.170,00 €
Die Miete ist monatlich im Voraus, spätestens am dritten Werktag des Monats zu zahlen.
§ 4 Kaution
Die Kaution beträgt 2.850,00 € und ist in drei Raten zahlbar.
Köln, den 10.12.2026
Unterschrift Vermieter Unterschrift Mieter`,
    expect: {
      event_type: 'contract',
      document_date: '2026-12-10',
      amount: { value: 1170, currency: 'EUR' },
      sender_name: 'Hausverwaltung Krause GmbH',
      category: 'Verträge',
      title: 'Mietvertrag vom 10.12.2026 – Hausverwaltung Krause GmbH',
      language: 'de',
    },
  },
  {
    name: 'car insurance policy with premium and start date',
    filename: 'Versicherungsschein KFZ.pdf',
    text: `Sicher & Gut Versicherung AG · 20095 Hamburg
Herrn
Thomas Becker
Rosenstraße 17
30159 Hannover
Versicherungsschein
Kfz-Haftpflicht- und Vollkaskoversicherung
Versicherungsschein-Nr.: KH-4455-778899
Kundennummer: 3311200
Hamburg, 01.12.2026
Versicherungsnehmer: Thomas Becker
Fahrzeug: VW Golf, amtliches Kennzeichen H-TB 123
Versicherungsbeginn: 01.01.2027, 00:00 Uhr
Versicherungsende: 01.01.2028, 00:00 Uhr; Verlängerung um jeweils ein Jahr
Kfz-Haftpflicht: Deckungssumme 100.000.000,00 €
Vollkasko: Selbstbeteiligung 300,00 €
Jahresbeitrag 612,40 €
Der Beitrag ist fällig am 01.01.2027 und wird per Lastschrift eingezogen.
Sicher & Gut Versicherung AG · Vorstand: Dr. Klaus Meier · Sitz Hamburg · HRB 12345`,
    expect: {
      // A policy is due when its term ends (the date to act on), not when the first premium is debited.
      event_type: 'policy',
      document_date: '2026-12-01',
      due_date: '2028-01-01',
      amount: { value: 612.4, currency: 'EUR' },
      reference_number: 'KH-4455-778899',
      sender_name: 'Sicher & Gut Versicherung AG',
      buyer_name: 'Thomas Becker',
      category: 'Versicherung',
      title: 'Versicherungsschein KH-4455-778899 – Sicher & Gut Versicherung AG',
    },
  },
  {
    name: 'second dunning letter with fee and new deadline',
    filename: 'mahnung.pdf',
    text: `Versandhaus Nordlicht GmbH | Hafenweg 5 | 24103 Kiel
Frau
Sabine Krüger
Ulmenallee 8
22041 Hamburg
Kiel, 03.01.2027
2. Mahnung
Kundennummer: 880123
Sehr geehrte Frau Krüger,
leider konnten wir zu unserer Rechnung Nr. 2026-0815 vom 01.11.2026 noch keinen Zahlungseingang feststellen.
Die Rechnung war fällig am 15.11.2026.
Rechnungsbetrag 119,00 €
Mahngebühr 5,00 €
Offener Betrag 124,00 €
Bitte überweisen Sie den offenen Betrag bis zum 17.01.2027 auf unser Konto.
Sollte sich Ihre Zahlung mit diesem Schreiben überschnitten haben, betrachten Sie es bitte als gegenstandslos.
Mit freundlichen Grüßen
Versandhaus Nordlicht GmbH`,
    expect: {
      event_type: 'notice',
      document_date: '2027-01-03',
      due_date: '2027-01-17',
      amount: { value: 124, currency: 'EUR' },
      reference_number: '2026-0815',
      sender_name: 'Versandhaus Nordlicht GmbH',
      buyer_name: 'Sabine Krüger',
      title: '2. Mahnung 2026-0815 – Versandhaus Nordlicht GmbH',
      tags: ['mahnung', 'versandhaus', '2027'],
    },
  },
  {
    name: 'income tax assessment with back payment',
    filename: 'Steuerbescheid 2025.pdf',
    text: `Finanzamt München
Abteilung II
Postfach 20 09 26, 80009 München
Herrn und Frau
Peter und Maria Schulz
Birkenweg 4
81369 München
Steuernummer 143/234/56789
Datum 16.12.2026
Bescheid für 2025
über Einkommensteuer und Solidaritätszuschlag
Festsetzung
Einkommensteuer Solidaritätszuschlag
Festgesetzt werden 14.230,00 € 0,00 €
abzüglich Steuerabzug vom Lohn 12.995,44 € 0,00 €
verbleibende Beträge 1.234,56 € 0,00 €
Nachzahlung 1.234,56 €
Bitte zahlen Sie den Betrag bis zum 19.01.2027 an die Finanzkasse des Finanzamts München.
Rechtsbehelfsbelehrung
Der Bescheid kann mit dem Einspruch angefochten werden. Der Einspruch ist innerhalb eines Monats nach Bekanntgabe einzulegen.`,
    expect: {
      event_type: 'notice',
      document_date: '2026-12-16',
      due_date: '2027-01-19',
      amount: { value: 1234.56, currency: 'EUR' },
      reference_number: '143/234/56789',
      sender_name: 'Finanzamt München',
      category: 'Steuern',
      language: 'de',
      title: 'Bescheid 143/234/56789 – Finanzamt München',
    },
  },
  {
    name: 'bank statement with opening and closing balance',
    filename: 'Kontoauszug_2026_12.pdf',
    text: `Sparkasse Musterstadt
Kontoauszug 12/2026 Blatt 1
Herrn Karl Vogel
Eichenstraße 21
97070 Würzburg
IBAN DE21 7905 0000 0012 3456 78 · Girokonto
Auszug vom 31.12.2026
Buchungstag Wert Vorgang Betrag EUR
Alter Kontostand vom 30.11.2026 1.845,20 +
01.12.2026 01.12.2026 Lastschrift Stadtwerke Würzburg 86,00 -
15.12.2026 15.12.2026 Gehalt Muster GmbH 2.580,57 +
28.12.2026 28.12.2026 Kartenzahlung Frischmarkt 45,33 -
Neuer Kontostand vom 31.12.2026 4.294,44 +
Bitte prüfen Sie Ihren Rechnungsabschluss.`,
    expect: {
      event_type: 'statement',
      document_date: '2026-12-31',
      amount: { value: 4294.44, currency: 'EUR' },
      sender_name: 'Sparkasse Musterstadt',
      category: 'Bank',
    },
    // "12/2026" is the month the statement covers; the IBAN is the account, not a document number.
    absent: ['due_date', 'reference_number'],
  },
  {
    name: 'painter offer valid until a date',
    filename: 'Angebot Malerarbeiten.pdf',
    text: `Malerbetrieb Schmidt GmbH
Farbweg 2
70173 Stuttgart
An
Familie Özdemir
Talstraße 15
70188 Stuttgart
Angebot Nr. AN-2026-123
Stuttgart, 05.12.2026
Sehr geehrte Familie Özdemir,
vielen Dank für Ihre Anfrage vom 28.11.2026. Gerne bieten wir Ihnen an:
Pos. 1 Wände und Decken streichen, 85 m² 1.700,00 €
Pos. 2 Abdeckarbeiten 300,00 €
Pos. 3 Lackieren von 4 Türen 1.000,00 €
Summe netto 3.000,00 €
zzgl. 19 % MwSt. 570,00 €
Angebotssumme brutto 3.570,00 €
Dieses Angebot ist gültig bis 31.01.2027.
Mit freundlichen Grüßen
Malerbetrieb Schmidt GmbH`,
    expect: {
      event_type: 'offer',
      document_date: '2026-12-05',
      amount: { value: 3570, currency: 'EUR' },
      reference_number: 'AN-2026-123',
      sender_name: 'Malerbetrieb Schmidt GmbH',
      buyer_name: 'Özdemir',
      title: 'Angebot AN-2026-123 – Malerbetrieb Schmidt GmbH',
      // An offer is due when it expires.
      due_date: '2027-01-31',
    },
  },
  {
    name: 'plain letter with a subject line',
    filename: 'scan 2026-12-11 09.14.55.pdf',
    text: `Hausverwaltung Krause GmbH · Lindenstraße 40 · 50674 Köln
Frau
Lena Hoffmann
Lindenstraße 40
50674 Köln
Köln, 11.12.2026
Betreff: Treppenhausreinigung ab Januar 2027
Sehr geehrte Frau Hoffmann,
wir möchten Sie darüber informieren, dass ab dem 01.01.2027 ein neues Reinigungsunternehmen das Treppenhaus reinigt.
Die Reinigung findet jeweils mittwochs statt. Bitte halten Sie die Flure frei.
Bei Fragen erreichen Sie uns unter 0221 998877.
Mit freundlichen Grüßen
Ihre Hausverwaltung Krause`,
    expect: {
      event_type: 'letter',
      document_date: '2026-12-11',
      sender_name: 'Hausverwaltung Krause GmbH',
      buyer_name: 'Lena Hoffmann',
      title: 'Treppenhausreinigung ab Januar 2027 – Hausverwaltung Krause GmbH',
      language: 'de',
    },
    absent: ['amount', 'due_date'],
  },
  {
    name: 'contract termination confirmation',
    filename: 'document.pdf',
    text: `FitWell Studios GmbH · Sportplatzweg 1 · 60311 Frankfurt am Main
Herrn
Daniel Wolf
Feldbergstraße 12
60323 Frankfurt am Main
Kündigungsbestätigung
Mitgliedsnummer: FW-228190
Frankfurt, 20.12.2026
Sehr geehrter Herr Wolf,
hiermit bestätigen wir den Eingang Ihrer Kündigung vom 14.12.2026.
Ihre Mitgliedschaft endet fristgerecht zum 31.03.2027. Bis dahin ist der monatliche Beitrag von 39,90 € weiter fällig.
Mit sportlichen Grüßen
Ihr FitWell-Team`,
    expect: {
      event_type: 'notice',
      document_date: '2026-12-20',
      reference_number: 'FW-228190',
      sender_name: 'FitWell Studios GmbH',
      buyer_name: 'Daniel Wolf',
      title: 'Kündigungsbestätigung FW-228190 – FitWell Studios GmbH',
    },
  },
];
