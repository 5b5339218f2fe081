/** French vocabulary of invoices, receipts, contracts and letters. */

import type { Lexicon } from './types.ts';

/** "n°", "nº", "no", "num.", "numéro": how French writes "number" after or before a label. */
const NO = '(?:n ?[°ºo]\\.?|num\\.?|num[ée]ro)';

export const fr: Lexicon = {
  language: 'fr',
  months: [
    ['janvier', 'janv', 'jan'], ['février', 'fevrier', 'févr', 'fevr', 'fév', 'fev'], ['mars'], ['avril', 'avr'], ['mai'], ['juin'],
    ['juillet', 'juil'], ['août', 'aout'], ['septembre', 'sept'], ['octobre', 'oct'], ['novembre', 'nov'],
    ['décembre', 'decembre', 'déc', 'dec'],
  ],
  weekdays: [['lundi'], ['mardi'], ['mercredi'], ['jeudi'], ['vendredi'], ['samedi'], ['dimanche']],
  numberWords: {
    un: 1, une: 1, deux: 2, trois: 3, quatre: 4, cinq: 5, six: 6, sept: 7, huit: 8, dix: 10, douze: 12, quinze: 15, vingt: 20,
    trente: 30, 'quarante-cinq': 45, soixante: 60, 'quatre-vingt-dix': 90,
  },
  periodUnits: {
    day: 'jours?(?: calendaires| civils)?|j\\.?', businessDay: 'jours? ouvr[ée]s|jours? ouvrables', week: 'semaines?', month: 'mois',
    year: 'ans?|ann[ée]es?',
  },
  within: ['sous', 'dans (?:un délai de|les)', 'dans', 'à', 'a', 'de', 'net'],
  immediate: ['[àa] r[ée]ception(?: de (?:la )?facture)?', 'comptant', 'payable imm[ée]diatement', 'paiement imm[ée]diat'],
  ordinal: '(?:er|re|e)',
  dateJoiners: [],
  labels: {
    total: ['net [àa] payer', 'total ttc', 'montant ttc', 'total [àa] payer', 'montant [àa] payer', 'reste [àa] payer', 'montant d[ûu]',
      'total g[ée]n[ée]ral', 'solde d[ûu]', 'total'],
    subtotal: ['total ht', 'montant ht', 'sous-? ?total', 'total hors taxes?', 'montant hors taxes?', 'base ht'],
    tax: ['tva', 'montant (?:de la )?tva', 'total tva', 'taxe'],
    dueDate: ['date d\'[ée]ch[ée]ance', '[ée]ch[ée]ance', '[àa] payer avant le', 'payable (?:avant )?le', 'date limite de paiement',
      'date de r[èe]glement'],
    documentDate: ['date de (?:la )?facture', 'date de facturation', 'date d\'[ée]mission', 'date', '[ée]mise? le', 'fait le'],
    invoiceNumber: [`facture ${NO}`, `${NO} (?:de )?facture`, 'r[ée]f[ée]rence facture', 'facture ?:'],
    creditNoteNumber: [`avoir ${NO}`, `${NO} (?:d')?avoir`, `facture d'avoir ${NO}`],
    orderNumber: [`commande ${NO}`, `${NO} (?:de )?commande`, 'bon de commande', `bon de livraison(?: ${NO})?`, 'r[ée]f[ée]rence commande'],
    customerNumber: [`client ${NO}`, `${NO} (?:de )?client`, 'code client', 'r[ée]f[ée]rence client', 'compte client'],
    vatId: ['tva intra(?:communautaire)?', `${NO} (?:de )?tva(?: intracommunautaire)?`, 'identifiant tva', 'siret', 'siren', 'rcs', 'ape', 'naf',
      'capital social', 'n° tva'],
    paymentTerms: ['conditions de (?:paiement|r[èe]glement)', 'paiement', 'r[èe]glement', 'payable', '[àa] r[ée]gler', '[ée]ch[ée]ance',
      'virement', 'net'],
    contractStart: ['date de d[ée]but', 'd[ée]but du contrat', 'prise d\'effet', 'date d\'effet', '[àa] compter du', 'entr[ée]e en vigueur'],
    contractEnd: ['date de fin', 'fin du contrat', 'expire le', 'jusqu\'au', '[ée]ch[ée]ance du contrat'],
    noticePeriod: ['pr[ée]avis', 'd[ée]lai de pr[ée]avis', 'r[ée]siliation', 'r[ée]silier'],
    sender: ['fournisseur', 'vendeur', '[ée]metteur', 'soci[ée]t[ée]', 'de la part de'],
  },
  documentTypes: {
    invoice: ['facture', 'facture d\'acompte', 'note d\'honoraires'],
    receipt: ['ticket de caisse', 'ticket (?:n ?[°º]|no\\.?)', 're[çc]u(?= ?(?:n ?[°º]|no\\.? |:|\\n|$))', 'quittance'],
    // "avoir" is also the verb "to have": only as a heading or before its number.
    creditNote: ['avoir(?= ?(?:n ?[°º]|no\\.? |num|:|\\n|$))', 'facture d\'avoir', 'note de cr[ée]dit'],
    reminder: ['relance', 'rappel', 'lettre de relance', 'mise en demeure', 'rappel de paiement'],
    contract: ['contrat', 'bail', 'contrat de location'],
    payslip: ['bulletin de (?:paie|salaire)', 'fiche de paie'],
    taxNotice: ['avis d\'imposition', 'avis de taxe fonci[èe]re', 'avis d\'imp[ôo]t', 'taxe d\'habitation'],
    policy: ['police d\'assurance', 'conditions particuli[èe]res', 'attestation d\'assurance', 'contrat d\'assurance'],
    bankStatement: ['relev[ée] de compte', 'relev[ée] bancaire', 'extrait de compte'],
    offer: ['devis', 'offre de prix', 'proposition commerciale'],
  },
  till: {
    paid: ['esp[èe]ces', 'rendu monnaie', 'monnaie rendue', '[àa] rendre(?= ?:? ?(?:rm|rs\\.?|kr|eur|usd|chf)? ?[^a-z\\n]{0,3}\\d)', 'pay[ée] par (?:cb|carte)', 'carte bancaire', 'cb(?= ?:? ?(?:rm|rs\\.?|kr|eur|usd|chf)? ?[^a-z\\n]{0,3}\\d)'],
    till: ['caisse(?= ?:? ?(?:rm|rs\\.?|kr|eur|usd|chf)? ?[^a-z\\n]{0,3}\\d)', 'caissi[èe]re?', 'ticket n ?[°º]', 'tpe'],
    thanks: ['merci de votre (?:visite|achat)', 'merci (?:et )?[àa] bient[ôo]t'],
  },
};
