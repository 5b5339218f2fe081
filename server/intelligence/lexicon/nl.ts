/** Dutch vocabulary of invoices, receipts, contracts and letters. */

import type { Lexicon } from './types.ts';

/** "nr.", "nummer", "no." after a Dutch label, with or without a hyphen or space. */
const NR = '(?:-? ?(?:nummer|nr\\.?|no\\.?))';

export const nl: Lexicon = {
  language: 'nl',
  months: [
    ['januari', 'jan'], ['februari', 'feb', 'febr'], ['maart', 'mrt', 'maa'], ['april', 'apr'], ['mei'], ['juni', 'jun'],
    ['juli', 'jul'], ['augustus', 'aug'], ['september', 'sept', 'sep'], ['oktober', 'okt'], ['november', 'nov'], ['december', 'dec'],
  ],
  weekdays: [['maandag'], ['dinsdag'], ['woensdag'], ['donderdag'], ['vrijdag'], ['zaterdag'], ['zondag']],
  numberWords: {
    een: 1, één: 1, twee: 2, drie: 3, vier: 4, vijf: 5, zes: 6, zeven: 7, acht: 8, tien: 10, twaalf: 12, veertien: 14,
    vijftien: 15, twintig: 20, dertig: 30, zestig: 60, negentig: 90,
  },
  periodUnits: {
    day: 'kalenderdag(?:en)?|dag(?:en)?', businessDay: 'werkdag(?:en)?', week: 'we(?:ek|ken)', month: 'maand(?:en)?', year: 'ja(?:ar|ren)',
  },
  within: ['binnen', 'in', 'na', 'van', 'netto'],
  immediate: ['directe betaling', '(?:direct|onmiddellijk) (?:te voldoen|betaalbaar)', 'per omgaande', 'bij ontvangst'],
  ordinal: '(?:e|ste|de)',
  dateJoiners: [],
  labels: {
    total: ['te betalen', 'totaal te betalen', 'totaalbedrag', 'totaal incl\\.? btw', 'totaal', 'openstaand bedrag', 'factuurbedrag',
      'eindtotaal'],
    subtotal: ['subtotaal', 'totaal excl\\.? btw', 'bedrag excl\\.? btw', 'netto(?:bedrag)?'],
    tax: ['btw', 'btw-bedrag', 'omzetbelasting'],
    dueDate: ['vervaldatum', 'vervaldag', 'uiterste betaaldatum', 'te betalen voor', 'betalen voor', 'betaaldatum'],
    documentDate: ['factuurdatum', 'datum factuur', 'datum', 'documentdatum'],
    invoiceNumber: [`factuur${NR}`, `factuur ${NR}`, 'factuurnr\\.?'],
    creditNoteNumber: [`creditnota${NR}`, `creditfactuur${NR}`],
    orderNumber: [`bestel${NR}`, `order${NR}`, `opdracht${NR}`, `pakbon${NR}`, 'inkoopordernummer'],
    customerNumber: [`klant${NR}`, `debiteur${NR}`, 'klantnr\\.?', 'relatienummer'],
    vatId: [`btw-?${NR}`, 'btw-?id', 'btw(?:-| )?identificatienummer', `kvk${NR}?`, `kamer van koophandel(?: ${NR})?`, 'rsin', 'ondernemingsnummer'],
    paymentTerms: ['betalingstermijn', 'betalingsvoorwaarden', 'te voldoen', 'betaling', 'betalen', 'voldoen', 'overmaken', 'over te maken', 'overschrijving',
      'netto'],
    contractStart: ['ingangsdatum', 'begindatum', 'aanvangsdatum', 'ingaande', 'met ingang van'],
    contractEnd: ['einddatum', 'looptijd tot', 'eindigt(?: op)?', 'tot en met', 'geldig tot'],
    noticePeriod: ['opzegtermijn', 'opzegging', 'opzeggen', 'opgezegd'],
    sender: ['leverancier', 'verkoper', 'afzender', 'van'],
  },
  documentTypes: {
    invoice: ['factuur', 'verkoopfactuur'],
    receipt: ['kassabon', 'kwitantie', 'betaalbewijs'],
    creditNote: ['creditnota', 'creditfactuur'],
    reminder: ['herinnering', 'betalingsherinnering', 'aanmaning', 'sommatie'],
    contract: ['overeenkomst', 'contract', 'huurovereenkomst', 'arbeidsovereenkomst'],
    payslip: ['loonstrook', 'salarisstrook', 'loonspecificatie', 'salarisspecificatie'],
    taxNotice: ['aanslag', 'aanslagbiljet', 'belastingaanslag', 'voorlopige aanslag'],
    policy: ['polis', 'verzekeringspolis', 'polisblad'],
    bankStatement: ['rekeningafschrift', 'bankafschrift', 'dagafschrift'],
    offer: ['offerte', 'prijsopgave'],
  },
  till: {
    paid: ['contant', 'wisselgeld', 'pinbetaling', 'gepind', 'betaald met (?:pin|kaart)'],
    till: ['kassa(?= ?:? ?(?:rm|rs\\.?|kr|eur|usd|chf)? ?[^a-z\\n]{0,3}\\d)', 'kassi[èe]re?', 'bonnummer'],
    thanks: ['bedankt voor uw (?:aankoop|bezoek)'],
  },
};
