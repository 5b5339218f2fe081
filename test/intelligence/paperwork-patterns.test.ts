/**
 * A household's paperwork other than bills, as senders print it: payslips, statements, quotations, fee notices and
 * contracts in the six languages, and the letterheads they come on. Every name and number is invented.
 */
import { describe, expect, it } from 'vitest';
import { understand } from '../../server/intelligence/understand.ts';
import { CATEGORIES, TODAY } from './sample-types.ts';

const read = (text: string) =>
  understand({ text, filename: 'document.pdf', categories: CATEGORIES, einvoice: null, today: TODAY });

describe('a name set over two lines of the letterhead', () => {
  it('joins a line that starts with a lower-case particle to the line above', () => {
    const letter = (top: string, second: string) =>
      `${top}\n${second}\nAv. Libertad 820 - (4400) Salta - Tel. 0387-555-0110\n\nRESUMEN DE CUENTA      Emitido el 02/10/2026\nSaldo anterior   $ 12.400,00`;
    expect(read(letter('BANCO NORTEÑO', 'de Crédito Rural S.A.')).sender_name?.value).toBe(
      'BANCO NORTEÑO de Crédito Rural S.A.',
    );
    expect(read(letter('CALDAIE ROSSETTI', 'di Rossetti Paolo & C. S.n.c.')).sender_name?.value).toBe(
      'CALDAIE ROSSETTI di Rossetti Paolo & C. S.n.c.',
    );
  });

  it('joins a short top line to a one-word name with its legal form under it, unless it only repeats that word', () => {
    const letter = (top: string) =>
      `${top}\nHaustechnik GmbH\nHeizung · Sanitär · Lüftung\nRingstraße 4, 4020 Linz  |  T +43 732 555 10\n\nLinz, 3. November 2026\nSehr geehrte Damen und Herren,`;
    expect(read(letter('NORDLICHT & SOHN')).sender_name?.value).toBe('NORDLICHT & SOHN Haustechnik GmbH');
    expect(read(letter('HAUSTECHNIK')).sender_name?.value).toBe('Haustechnik GmbH');
  });
});

describe('lines that look like a return address but name no one', () => {
  it("takes the bank's name over its branch's address line", () => {
    const statement = [
      'KESTREL CO-OPERATIVE BANK',
      'Kestrel Co-operative Bank Ltd.                         Page 1 of 2',
      'Mill Street Branch, Unit 4, Exampleton 560041',
      'Phone: 080-5550 1100   www.kestrelbank.example',
      '',
      'STATEMENT OF ACCOUNT for the period 01/10/2026 to 31/10/2026',
      'Opening balance   12,400.00',
    ].join('\n');
    expect(read(statement).sender_name?.value).toBe('Kestrel Co-operative Bank Ltd.');
  });

  it('does not take a clause of a lease for a name', () => {
    const lease = [
      'IMMOBILIARE LAGUNA',
      'Gestione e locazione immobili',
      'Via Roma 12 - 30100 Venezia - Tel. 041 555 0101',
      '',
      'CONTRATTO DI LOCAZIONE AD USO ABITATIVO',
      'Le parti convengono quanto segue: il Conduttore prende in affitto',
      "l'appartamento posto in Venezia, Calle Larga 4, 30100 Venezia,",
      'con cantina e posto bici.',
    ].join('\n');
    expect(read(lease).sender_name?.value).toBe('IMMOBILIARE LAGUNA');
  });

  it('knows legal forms written in capitals', () => {
    const letter = (form: string) =>
      [
        'Gentile Cliente,',
        'le confermiamo la variazione del Suo indirizzo di recapito.',
        'Cordiali saluti',
        '',
        `CASA LAGUNA ${form} – P.IVA 01234567890 – Capitale sociale € 12.500`,
      ].join('\n');
    expect(read(letter('S.R.L.')).sender_name?.value).toBe('CASA LAGUNA S.R.L.');
    expect(read(letter('S.P.A.')).sender_name?.value).toBe('CASA LAGUNA S.P.A.');
  });
});

describe('what kind of document it is, in more of the words senders use', () => {
  const kind = (text: string) => read(text).event_type?.value;

  it('reads payslips by their Austrian and Spanish names', () => {
    expect(
      kind(
        'Metallbau Beispiel GmbH\n\nABRECHNUNG DER BEZÜGE\nOktober 2026\nBeschäftigungsgruppe C\nNETTOBEZUG 2.140,10',
      ),
    ).toBe('payslip');
    expect(
      kind(
        'RECIBO INDIVIDUAL JUSTIFICATIVO DEL PAGO DE SALARIOS\nEMPRESA  TALLERES EJEMPLO, S.L.\nA. TOTAL DEVENGADO 2.100,00',
      ),
    ).toBe('payslip');
  });

  it('reads statements of accounts and pensions', () => {
    expect(
      kind(
        'Spaarbank Voorbeeld\n\nRekeningoverzicht\nPeriode 1 oktober 2026 t/m 31 oktober 2026\nBeginsaldo € 1.260,00',
      ),
    ).toBe('statement');
    expect(kind('Banco Ejemplo\n\nRESUMEN DE CUENTA    Emitido el 01/10/2026\nSaldo anterior $ 10.450,00')).toBe(
      'statement',
    );
    expect(
      kind("Pensionskasse Beispiel\n\nVORSORGEAUSWEIS per 1. Januar 2026\nVersicherter Lohn 58'000.00\nTotal 4'100.00"),
    ).toBe('statement');
  });

  it('reads a Mexican quotation, a French fee notice and a Flemish tenancy renewal', () => {
    expect(kind('CLIMAS EJEMPLO, S.A. DE C.V.\n\nCOTIZACIÓN\nNo. COT-2026-0101\nTOTAL $ 45,000.00')).toBe('offer');
    expect(kind("COMMUNE D'EXEMPLE\n\nAVIS DES SOMMES À PAYER     N° d'avis : 2026-0044\nTOTAL À PAYER 88,00 €")).toBe(
      'notice',
    );
    const renewal = [
      'Immo Voorbeeld',
      'verhuur · beheer',
      'Kaai 5 · 2000 Antwerpen · info@immovoorbeeld.example',
      '',
      'Betreft: verlenging van de woninghuurovereenkomst',
      'Uw woninghuurovereenkomst loopt af op 30 juni 2026.',
      'VERLENGINGSOVEREENKOMST',
      'Artikel 1 – Duur',
      'De huur loopt voortaan nog twaalf maanden door.',
      'Artikel 2 – Huurprijs',
      'De huur bedraagt € 900 per maand.',
      'Artikel 3 – Overige bepalingen',
      'Alle overige bepalingen blijven ongewijzigd.',
      'Opgemaakt te Antwerpen in twee exemplaren.',
      '',
      'Immo Voorbeeld BV · BTW BE 0123.456.789 · BA-verzekering polis 12.345',
    ].join('\n');
    expect(kind(renewal)).toBe('contract');
  });
});

describe('the net pay of a payslip, in the six languages', () => {
  const net = (text: string) => read(text).amount?.value.value;

  it('reads what is paid out, not a deduction and not the net before income tax', () => {
    expect(
      net(
        'BULLETIN DE PAIE\nSalaire de base 2 300,00\nCotisations salariales 455,00\nNET À PAYER AVANT IMPÔT SUR LE REVENU 1 820,00\nImpôt sur le revenu prélevé à la source 61,30\nNET PAYÉ 1 758,70 €',
      ),
    ).toBe(1758.7);
    expect(net('BUSTA PAGA\nRetribuzione lorda 2.460,00\nTOTALE TRATTENUTE 700,10\nNETTO DEL MESE € 1.759,90')).toBe(
      1759.9,
    );
    expect(net('Loonstrook\nBruto salaris 3.100,00\nLoonheffing 610,40\nNetto uitbetaling € 2.489,60')).toBe(2489.6);
    expect(
      net('NÓMINA\nA. TOTAL DEVENGADO 2.100,00\nB. TOTAL A DEDUCIR 140,25\nLÍQUIDO TOTAL A PERCIBIR (A - B) 1.959,75'),
    ).toBe(1959.75);
  });
});

describe("a contract's term as more senders state it", () => {
  const terms = (text: string) => {
    const u = read(text);
    return [u.contract_start?.value ?? null, u.contract_end?.value ?? null];
  };

  it('reads a period whose dates carry a time of day', () => {
    expect(
      terms(
        'Harbour Example Insurance DAC\n\nMOTOR INSURANCE SCHEDULE\nPolicy Number  MX-31862\nCover runs  12:00 noon 01/05/2026 until midnight 30/04/2027\nTotal premium €512.40',
      ),
    ).toEqual(['2026-05-01', '2027-04-30']);
    expect(
      terms(
        'Beispiel Versicherung AG\n\nVERSICHERUNGSSCHEIN\nVertragsdauer  01.06.2026, 00:00 Uhr bis 31.05.2029, 24:00 Uhr\nJahresprämie EUR 236,00',
      ),
    ).toEqual(['2026-06-01', '2029-05-31']);
  });

  it('ends a term stated by its length a day before the same date so many months or years later', () => {
    expect(
      terms(
        'Arrendadora Ejemplo, S.A. de C.V.\n\nCONTRATO DE ARRENDAMIENTO\nPlazo  36 meses\nFecha de inicio  10 de marzo de 2026',
      ),
    ).toEqual(['2026-03-10', '2029-03-09']);
    expect(
      terms(
        'Immobiliare Esempio S.r.l.\n\nCONTRATTO DI LOCAZIONE\nArt. 2 – Durata: 4 anni\nAffitto con decorrenza dal 1° marzo 2026.',
      ),
    ).toEqual(['2026-03-01', '2030-02-28']);
  });

  it('reads a Belgian lease that "prend cours" and ends "pour se terminer le"', () => {
    expect(
      terms(
        'Agence Exemple SRL\n\nBAIL DE RÉSIDENCE PRINCIPALE\nArticle 3 – Terme\nLa location, prenant cours le 1er octobre 2026, est consentie pour trois ans pour se terminer le 30 septembre 2029.',
      ),
    ).toEqual(['2026-10-01', '2029-09-30']);
  });
});

describe("a company's capital is no amount of the document", () => {
  it('skips the share capital of a legal footer in French, Italian and Dutch', () => {
    const contract = (footer: string) =>
      `CONTRATTO DI MANUTENZIONE\nIl contratto ha durata di un anno e si rinnova tacitamente.\nLe parti convengono quanto segue.\n\n${footer}`;
    expect(read(contract('Esempio Energia S.p.A. – Capitale sociale € 2.000.000,00 i.v.')).amount).toBeUndefined();
    expect(read(contract('Exemple SAS au capital social de 150 000,00 €')).amount).toBeUndefined();
    expect(read(contract('Voorbeeld NV – maatschappelijk kapitaal € 61.500,00')).amount).toBeUndefined();
  });
});

describe("a policy's, a quotation's and an assessment's own number, not the customer's", () => {
  const reference = (text: string) => read(text).reference_number?.value;

  it('reads policy numbers in Dutch, Spanish, Italian, French and Austrian German', () => {
    const policy = (label: string) =>
      `Voorbeeld Verzekeringen NV\n\nPOLISBLAD\nKlantnummer        5.551.020\n${label}   PX-2026-4471\nIngangsdatum 1 februari 2026\nPremie per maand € 13,70`;
    expect(reference(policy('Polisnummer'))).toBe('PX-2026-4471');
    expect(reference(policy('Póliza n.º'))).toBe('PX-2026-4471');
    expect(reference(policy('Polizza n.'))).toBe('PX-2026-4471');
    expect(reference(policy('Police n°'))).toBe('PX-2026-4471');
    expect(reference(policy('Polizzennummer'))).toBe('PX-2026-4471');
  });

  it("reads a quotation's number in Dutch, Spanish and Italian", () => {
    const offer = (heading: string, label: string) =>
      `Schilderwerken Voorbeeld\n\n${heading}\nKlantnummer   5120\n${label}   2026-0188\nTotaal € 4.380,00`;
    expect(reference(offer('OFFERTE', 'Offertenummer'))).toBe('2026-0188');
    expect(reference(offer('PRESUPUESTO', 'Presupuesto n.º'))).toBe('2026-0188');
    expect(reference(offer('PREVENTIVO', 'Preventivo n.'))).toBe('2026-0188');
  });

  it("reads a Dutch assessment's number and an Italian notice's identifier", () => {
    expect(
      reference(
        'Belastingkantoor Voorbeeld\n\nAANSLAG GEMEENTELIJKE BELASTINGEN\nAanslagnummer   5512.20.118\nTe betalen € 431,00',
      ),
    ).toBe('5512.20.118');
    expect(
      reference(
        'Comune di Esempio\n\nAVVISO DI PAGAMENTO TARI 2026\nIdentificativo avviso   TR-2026-0041\nTotale da pagare € 188,00',
      ),
    ).toBe('TR-2026-0041');
  });
});

describe("a person's own dates are not the document's", () => {
  it('skips birth and entry dates on payslips and contracts in the other languages', () => {
    const payslip = [
      'Exemple Logistique SAS',
      'BULLETIN DE PAIE',
      "Date d'entrée : 03/04/2018   Date de naissance : 14/06/1990   Ancienneté : 8 ans",
      'Période du 01/10/2026 au 31/10/2026',
      'NET PAYÉ 1 902,10 €',
      'Payé le 30/10/2026',
    ].join('\n');
    expect(read(payslip).document_date?.value).not.toBe('2018-04-03');
    const contract = [
      'Ejemplo Servicios, S.L.',
      'CONTRATO DE TRABAJO',
      'Trabajadora   María Ejemplo Ruiz   Fecha de nacimiento 07/05/1991',
      'Madrid, 14 de septiembre de 2026',
    ].join('\n');
    expect(read(contract).document_date?.value).toBe('2026-09-14');
  });
});

describe('notice periods as clauses state them', () => {
  const notice = (text: string) => read(text).notice_period?.value;
  const contract = (clause: string) =>
    `Example Letting Co.\n\nRESIDENTIAL LEASE AGREEMENT\nLease No. LX-2026-905\n\n${clause}\nRent $1,850.00 per month.`;

  it('reads a period written in words and figures, and one before its label', () => {
    expect(notice(contract('The Tenant shall give ninety (90) days of written notice to end this Lease.'))).toEqual({
      count: 90,
      unit: 'day',
    });
    expect(
      notice(
        'Beispiel Versicherung AG\n\nVERSICHERUNGSSCHEIN\nBleibt der Vertrag nicht zwei Monate vor dem Ende des Versicherungsjahres gekündigt, läuft er ein weiteres Jahr.',
      ),
    ).toEqual({ count: 2, unit: 'month' });
  });

  it('reads a clause that goes on over the next line, and the Spanish and Flemish words for it', () => {
    expect(
      notice(
        'Esempio Impianti S.n.c.\n\nCONTRATTO DI MANUTENZIONE\nRinnovo automatico annuale. Ciascuna parte può dare disdetta per iscritto,\ncon raccomandata inviata 45 giorni prima del termine.',
      ),
    ).toEqual({ count: 45, unit: 'day' });
    expect(
      notice(
        'Gimnasio Ejemplo, S.L.\n\nCONTRATO DE SOCIO\nPara darse de baja, avise en recepción con 20 días de antelación.',
      ),
    ).toEqual({ count: 20, unit: 'day' });
    expect(
      notice('Immo Voorbeeld\n\nHUUROVEREENKOMST\nVoor de huurder geldt een opzeggingstermijn van twee maanden.'),
    ).toEqual({ count: 2, unit: 'month' });
  });
});

describe("a contract's recurring fee, not its one-off fees or deposit", () => {
  const fee = (text: string) => read(text).amount?.value.value;

  it('takes the monthly fee over an activation fee or a deposit, in Spanish, Italian and Dutch', () => {
    expect(
      fee(
        'Gimnasio Ejemplo, S.L.\n\nCONTRATO DE SOCIO\nNº contrato: GE-2026-0101\nCuota mensual            42,50 €\nCuota de alta            30,00 €\nTarjeta de acceso (fianza 6,00 €)',
      ),
    ).toBe(42.5);
    expect(
      fee(
        'Esempio Fibra S.p.A.\n\nCONTRATTO DI ABBONAMENTO\nContratto n. EF-2026-907\nCanone mensile           24,40 €\nContributo di attivazione 35,00 €',
      ),
    ).toBe(24.4);
    expect(
      fee(
        'Glasvezel Voorbeeld B.V.\n\nBEVESTIGING VAN JE ABONNEMENT\nContractnummer GV-2026-0412\nMaandbedrag              € 61,00\nEenmalige aansluitkosten € 35,00',
      ),
    ).toBe(61);
  });
});

describe('days and names that are not what they look like', () => {
  it('does not date a Dutch policy or subscription by its start or installation day', () => {
    const policy = [
      'Voorbeeld Verzekeringen NV',
      'POLISBLAD AANSPRAKELIJKHEID',
      'Polisnummer      AV-2026-908',
      'Aanvangsdatum    01/01/2027',
      'Installatiedatum 05/01/2027',
      'Utrecht, 2 december 2026',
    ].join('\n');
    expect(read(policy).document_date?.value).toBe('2026-12-02');
  });

  it("takes neither a department's address line nor a sentence's joining word for the sender", () => {
    const notice = [
      'Ufficio Entrate – Via Dante 8 – 38100 Borgo Esempio (TN)',
      '',
      'AVVISO DI PAGAMENTO TARI 2026',
      'Totale da pagare € 188,00',
      '',
      'Comune di Borgo Esempio – C.F. 00123450167',
    ].join('\n');
    expect(read(notice).sender_name?.value ?? '').not.toMatch(/^Ufficio/u);
    const policy = [
      'EXAMPLE MOTOR',
      'MOTOR INSURANCE RENEWAL',
      'Policy number  EXM-2026-4471',
      'Example Motor is a trading name of Example Underwriting Ltd, registered in England.',
    ].join('\n');
    expect(read(policy).sender_name?.value ?? '').not.toMatch(/^of /u);
  });
});

describe('confidence where a value is only a stand-in', () => {
  it("doubts a customer number standing in for a contract's own number", () => {
    const confirmation =
      'Glasvezel Voorbeeld B.V.\n\nABONNEMENTSOVEREENKOMST\nKlantnummer 40.118.227\nMaandbedrag € 61,00';
    const reference = read(confirmation).reference_number;
    expect(reference?.value).toBe('40.118.227');
    expect(reference?.confidence).toBeLessThanOrEqual(0.7);
  });

  it("doubts a contract's amount that is not its recurring fee, however well it adds up", () => {
    const contract = [
      'Beispiel Software GmbH',
      'DIENSTLEISTUNGSVERTRAG',
      'Vertragsnummer DV-2026-906',
      'Einrichtung der Software          1.100,00 €',
      'Summe netto                        1.100,00 €',
      'USt. 19 %                            209,00 €',
      'Gesamtbetrag                       1.309,00 €',
    ].join('\n');
    const amount = read(contract).amount;
    expect(amount?.value.value).toBe(1309);
    expect(amount?.confidence).toBeLessThanOrEqual(0.75);
  });
});

describe('payslips and credit notes by more of their names', () => {
  it('reads a Luxembourg "fiche de salaire" and an Argentine "recibo de haberes", paid out net', () => {
    const fiche = read(
      'Exemple Ingénierie S.à r.l.\n\nFICHE DE SALAIRE – MAI 2026\nSalaire brut 4.400,00\nTotal cotisations sociales 633,10\nSalaire net 3.787,60\nNET À PAYER 3.731,60 €',
    );
    expect([fiche.event_type?.value, fiche.amount?.value.value]).toEqual(['payslip', 3731.6]);
    const recibo = read(
      'EJEMPLO AGRO S.R.L.            RECIBO DE HABERES\nFecha de ingreso: 01/08/2019\nLugar y fecha de pago: Rosario, 04/10/2026\nTOTALES 1.000.000,00 180.000,00\nNETO A COBRAR $ 820.000,00',
    );
    expect([recibo.event_type?.value, recibo.document_date?.value]).toEqual(['payslip', '2026-10-04']);
  });

  it("reads a credit note's own number and total, not the invoice it corrects", () => {
    const note = read(
      'Imprimerie Exemple SRL\n\nNOTE DE CRÉDIT\nN° de note de crédit     NC-2026-0041\nConcerne facture F-2026-3310 du 30/09/2026\nTOTAL NOTE DE CRÉDIT 212,10 €',
    );
    expect([note.event_type?.value, note.reference_number?.value, note.amount?.value.value]).toEqual([
      'credit_note',
      'NC-2026-0041',
      212.1,
    ]);
    const copia = read(
      [
        'ESEMPIO CARTA S.r.l.',
        'Carta · Cancelleria',
        'Copia di cortesia della fattura elettronica. Per uso interno;',
        "l'esemplare fiscale è depositato presso lo SdI.",
        'NOTA DI CREDITO                              Tipo documento TD04',
        'Numero                14/NC',
        'Rif. fattura          n. 201 del 31/01/2026',
        'Abbuono su fattura n. 201                     1    336,07    336,07   22%',
        'Totale fattura n. 201 del 31/01/2026: € 2.270,00',
        'TOTALE NOTA DI CREDITO        € 455,00',
      ].join('\n'),
    );
    expect([copia.event_type?.value, copia.amount?.value.value]).toEqual(['credit_note', 455]);
    const abono = read(
      'Suministros Ejemplo, S.L.\n\nFACTURA RECTIFICATIVA (ABONO)\nFactura rectificada A-2026/0101 de 28/10/2026\nTOTAL FACTURA RECTIFICATIVA -335,00 €\nImporte de la factura rectificada A-2026/0101: 1.950,00 €',
    );
    expect(abono.amount?.value.value).toBe(335);
  });
});

describe('more lines that name no sender', () => {
  it('reads "T.a.v." as the recipient\'s attention line', () => {
    const letter = [
      'T.a.v. J. Voorbeeld',
      'Postbus 1000',
      '1000 AA Amsterdam',
      '',
      'Belastingkantoor Voorbeeld',
      'AANSLAG GEMEENTELIJKE BELASTINGEN',
      'Te betalen € 431,00',
    ].join('\n');
    expect(read(letter).sender_name?.value ?? '').not.toMatch(/T\.a\.v/u);
  });

  it("takes neither a corrective invoice's type words nor a clause cut at its commas for a name", () => {
    const abono = read(
      [
        'SUMINISTROS NAVALES DEL NORTE, S.L.',
        'Hostelería · Frío industrial · Vajilla',
        'Av. del Puerto 120 · 33201 Gijón (Asturias)',
        'Tel. 985 00 00 00 · ventas@ejemplo.example',
        'CIF B00000000',
        '',
        '                                                  Cliente:',
        'FACTURA RECTIFICATIVA (ABONO)                     Sidrería El Rincón del Muelle, S.L.',
        '                                                  CIF B00000001',
        'Número                 R-2026/0117                C/ Corrida 31, 2º',
        'Fecha                  12 de diciembre de 2026    33206 Gijón',
        'TOTAL FACTURA RECTIFICATIVA -335,00 €',
      ].join('\n'),
    );
    expect(abono.sender_name?.value ?? '').not.toMatch(/RECTIFICATIVA/u);
    const bail = read(
      [
        'BAIL COMMERCIAL',
        'ENTRE LES SOUSSIGNÉS',
        'La société Exemple Immobilier, société civile ayant son siège 9 quai',
        'Ouest, 44000 Nantes, inscrite au registre du commerce de Nantes au n° 123 456 789, agissant par',
        'son gérant, ci-après « le Bailleur »,',
      ].join('\n'),
    );
    expect(bail.sender_name?.value ?? '').not.toBe('Ouest');
  });
});

describe('a practice or an institution named over two lines', () => {
  it('joins a generic name to the title and name under it, and two short lines in capitals', () => {
    const practice = read(
      'STUDIO DENTISTICO\nDott. Paolo Esempio\nVia Roma 5 - 10121 Torino\n\nFattura n. 12/2026 del 03/11/2026\nTotale € 180,00',
    );
    expect(practice.sender_name?.value).toBe('STUDIO DENTISTICO Dott. Paolo Esempio');
    const hospital = read(
      'LAKESIDE VALLEY\nCOMMUNITY HOSPITAL\nPatient Accounts\n100 Shore Road, Exampleton, OH 43000\n\nSTATEMENT DATE 11/03/2026\nAmount due $120.00',
    );
    expect(hospital.sender_name?.value).toBe('LAKESIDE VALLEY COMMUNITY HOSPITAL');
  });

  it("keeps a shop's sign without the owner company under it", () => {
    const receipt = read('BAR ESEMPIO\ndi Rossi Anna & C. snc\nVia Po 3 - 10123 Torino\n\nSCONTRINO\nTOTALE EURO 4,20');
    expect(receipt.sender_name?.value).toBe('BAR ESEMPIO');
  });
});

describe('a totals row read across its columns', () => {
  it('takes the gross at the end of a row of net, tax and gross', () => {
    const renewal = read(
      'Compagnia Esempio S.p.A.\n\nAVVISO DI SCADENZA POLIZZA\nPolizza n. CE-2026-5521\nPremio                      Imponibile   Imposte    Totale\nTotale                      290,00       64,53      354,53',
    );
    expect(renewal.amount?.value.value).toBe(354.53);
  });
});

describe('whose dollars and pesos, and doubtful amounts', () => {
  it("reads dollars as the letterhead's country's, not a country a line item mentions", () => {
    const bill = read(
      'EXAMPLE WIRELESS\nPO Box 1000, Dallas, TX 75201-0001\n\nYour bill   Bill date March 3, 2026\nCalls to Mexico (12 min)    $2.40\nTotal due   $88.10',
    );
    expect(bill.amount?.value.currency).toBe('USD');
  });

  it("does not take an Argentine doctor's licence (M.N.) for Mexico's moneda nacional", () => {
    const receipt = read(
      'ÓPTICA EJEMPLO S.R.L.\nCUIT: 30-00000000-0\nFACTURA B\nPrescripción de la Dra. Ana Ejemplo (M.N. 12.345)\nImporte Total        $ 210.000,00',
    );
    expect(receipt.amount?.value.currency).toBe('ARS');
  });

  it('doubts a refund as the amount, and takes no address label for a name', () => {
    const refund = read('Finanzamt Beispielstadt\n\nBESCHEID über Einkommensteuer 2025\nErstattung: 812,40 €');
    expect(refund.amount?.confidence).toBeLessThanOrEqual(0.75);
    const loan = [
      'BANCO EJEMPLO CONSUMO                                   Banco Ejemplo Consumo, S.A.U.',
      'créditos al consumo                                     Calle Mayor, 12',
      '                                                        28013 Madrid',
      '',
      'CONTRATO DE PRÉSTAMO PERSONAL',
      'Nº de préstamo          0999 1111 22 0003334444',
      '',
      'PRESTATARIO',
      'Nombre                  D. Pablo Ejemplo Ruiz',
      'Domicilio               C/ Toledo, 15, 1.º A, 28005 Madrid',
      'Cuota mensual 210,00 €',
    ].join('\n');
    const contract = read(loan);
    expect(contract.sender_name?.value ?? '').not.toBe('Domicilio');
    expect(contract.sender_name?.value).toMatch(/^banco ejemplo consumo/iu);
  });
});

describe("a statement's and a credit note's own number", () => {
  const reference = (text: string) => read(text).reference_number?.value;

  it('reads a statement number in French, Dutch, Spanish and Italian', () => {
    const statement = (heading: string, label: string) =>
      `Spaarbank Voorbeeld\n\n${heading}\n${label}            2026/011\nSaldo 1.250,00`;
    expect(reference(statement('RELEVÉ DE COMPTE', 'Relevé numéro'))).toBe('2026/011');
    expect(reference(statement('REKENINGAFSCHRIFT', 'Afschriftnummer'))).toBe('2026/011');
    expect(reference(statement('EXTRACTO DE CUENTA', 'Extracto n.º'))).toBe('2026/011');
    expect(reference(statement('ESTRATTO CONTO', 'Estratto conto n.'))).toBe('2026/011');
  });

  it("takes a credit note's generic number over the invoice it refers to", () => {
    const note = read(
      'Esempio Forniture S.r.l.\n\nNOTA DI CREDITO\nNumero                    NC/2026/0031\nData                      04/11/2026\nRiferimento fattura n. 2210/2026 del 02/10/2026\nTotale nota di credito € 96,40',
    );
    expect(note.reference_number?.value).toBe('NC/2026/0031');
  });
});

describe('refunds in more words, and a credit note that is not doubted for crediting', () => {
  it("doubts an assessment's credit or repayment as the amount, but not a credit note's total", () => {
    const nl = read(
      'Gemeente Voorbeeld\n\nAANSLAGBILJET\nAanslagnummer 2026/0101/00441\nTerug te betalen aan u      31,00 EUR',
    );
    expect(nl.amount?.confidence).toBeLessThanOrEqual(0.75);
    const note = read(
      'Beispiel Handel GmbH\n\nGUTSCHRIFT Nr. GS-2026-0412\nSumme Gutschrift      120,00 €\nZahlbar: wird verrechnet',
    );
    expect(note.amount?.confidence).toBeGreaterThan(0.75);
  });
});

describe('more letterheads over two lines, and more lines that are not names', () => {
  it('joins a generic first line to a proper name in capitals, and a name in capitals to its trade word', () => {
    const bank = read(
      "Caisse d'épargne\nVAL-EXEMPLE\n1200, boulevard Exemple, Saint-Exemple (Québec)  G0A 2B0\n\nRELEVÉ DE COMPTE\nSolde au 2026-10-31   1 204,50 $",
    );
    expect(bank.sender_name?.value).toBe("Caisse d'épargne VAL-EXEMPLE");
    const gardener = read(
      'BLAD & VOORBEELD\nhoveniers\nTuinontwerp · Beplanting\nTuinstraat 4 · 3511 AA Utrecht\n\nFACTUUR 2026-118\nTe betalen € 640,00',
    );
    expect(gardener.sender_name?.value).toBe('BLAD & VOORBEELD hoveniers');
  });

  it('takes neither a statement heading nor a subject line for the sender', () => {
    const statement = read('RELEVÉ DE COMPTE\nRelevé numéro 12\nSolde 1 204,50 $');
    expect(statement.sender_name?.value ?? '').not.toMatch(/RELEV/u);
    const letter = read(
      'Betreft: uw huurcontract, nieuwe huurprijs vanaf 1 januari – Dorpsstraat 3 bus 1, 2000 Antwerpen\nGeachte heer,\nDe huurprijs wordt aangepast.',
    );
    expect(letter.sender_name?.value ?? '').not.toMatch(/^Betreft/u);
  });
});

describe('a fee worked out on its line, and a deposit beside the rent', () => {
  it('takes the result of a sum written on the line', () => {
    const contract = read(
      'Alarmas Ejemplo, S.L.\n\nCONTRATO DE SERVICIO\nNº de contrato AE-2026-0311\nMantenimiento: cuota mensual 31,00 € más IVA (21 %) = 37,51 € al mes',
    );
    expect(contract.amount?.value.value).toBe(37.51);
  });

  it('does not read a deposit as rent because its line mentions the rent', () => {
    const storage = read(
      'Opslag Voorbeeld B.V.\n\nHUUROVEREENKOMST OPSLAGRUIMTE\nTotaal per maand          € 97,20\nWaarborgsom (eenmalig; teruggave na afloop van de huur)   € 150,00',
    );
    expect(storage.amount?.value.value).toBe(97.2);
  });
});
