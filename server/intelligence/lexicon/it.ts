/** Italian vocabulary of invoices, receipts, contracts and letters. */

import type { Lexicon } from './types.ts';

/** "n.", "nr.", "n°", "num.", "numero" before or after an Italian label. */
const NO = '(?:n[r°º]?\\.?|num\\.?|numero)';

export const it: Lexicon = {
  language: 'it',
  months: [
    ['gennaio', 'genn', 'gen'], ['febbraio', 'febbr', 'feb'], ['marzo', 'mar'], ['aprile', 'apr'], ['maggio', 'magg', 'mag'],
    ['giugno', 'giu'], ['luglio', 'lug'], ['agosto', 'ago'], ['settembre', 'sett', 'set'], ['ottobre', 'ott'], ['novembre', 'nov'],
    ['dicembre', 'dic'],
  ],
  weekdays: [
    ['lunedì', 'lunedi'], ['martedì', 'martedi'], ['mercoledì', 'mercoledi'], ['giovedì', 'giovedi'], ['venerdì', 'venerdi'],
    ['sabato'], ['domenica'],
  ],
  numberWords: {
    un: 1, uno: 1, una: 1, due: 2, tre: 3, quattro: 4, cinque: 5, sei: 6, sette: 7, otto: 8, dieci: 10, dodici: 12, quindici: 15,
    venti: 20, trenta: 30, sessanta: 60, novanta: 90,
  },
  periodUnits: {
    day: 'giorni(?: (?:data fattura|d\\.?f\\.?|fine mese|f\\.?m\\.?))?|giorno|gg\\.?', businessDay: 'giorni lavorativi',
    week: 'settiman[ae]', month: 'mes[ei]', year: 'ann[oi]',
  },
  within: ['entro', 'a', 'in', 'di'],
  immediate: ['a vista', 'pagamento immediato', 'rimessa diretta', 'al ricevimento(?: della fattura)?'],
  ordinal: '(?:º|°)',
  dateJoiners: [],
  labels: {
    total: ['totale (?:da pagare|documento|fattura)', 'importo (?:totale|da pagare)', 'netto a pagare', 'totale ivato', 'totale'],
    subtotal: ['imponibile', 'subtotale', 'totale imponibile', 'totale netto', 'netto'],
    tax: ['iva', 'imposta', 'totale iva'],
    dueDate: ['data (?:di )?scadenza', 'scadenza', 'da pagare entro il', 'pagare entro il'],
    documentDate: ['data (?:della )?fattura', 'data (?:di )?emissione', 'data documento', 'data'],
    invoiceNumber: [`fattura ${NO}`, `${NO} (?:di )?fattura`, 'numero fattura', 'fattura ?:'],
    creditNoteNumber: [`nota di credito ${NO}`, `${NO} (?:di )?nota di credito`],
    orderNumber: [`ordine ${NO}`, `${NO} (?:di )?ordine`, `ddt(?: ${NO})?`, `documento di trasporto(?: ${NO})?`, `bolla(?: ${NO})?`],
    customerNumber: [`cliente ${NO}`, `codice cliente`, `${NO} cliente`],
    vatId: ['p\\.? ?iva', 'partita iva', 'codice fiscale', 'c\\.?f\\.?', 'rea', 'registro (?:delle )?imprese', 'cod\\.? fisc\\.?'],
    paymentTerms: ['condizioni di pagamento', 'modalit[àa] di pagamento', 'pagamento', 'scadenza', 'bonifico', 'rimessa'],
    contractStart: ['data di (?:inizio|decorrenza)', 'decorrenza', 'inizio (?:del )?contratto', 'a decorrere dal', 'con effetto dal'],
    contractEnd: ['data di (?:fine|scadenza)', 'scadenza (?:del )?contratto', 'fino al', 'valido fino al'],
    noticePeriod: ['preavviso', 'disdetta', 'recesso'],
    sender: ['fornitore', 'venditore', 'cedente', 'mittente'],
  },
  documentTypes: {
    invoice: ['fattura', 'fattura elettronica', 'fattura accompagnatoria'],
    receipt: ['scontrino(?: fiscale)?', 'ricevuta(?: fiscale)?', 'documento commerciale'],
    creditNote: ['nota di credito'],
    reminder: ['sollecito(?: di pagamento)?', 'promemoria di pagamento', 'diffida', 'messa in mora'],
    contract: ['contratto', 'contratto di locazione'],
    payslip: ['busta paga', 'cedolino(?: paga)?'],
    taxNotice: ['avviso di accertamento', 'cartella di pagamento', 'avviso di pagamento', 'agenzia delle entrate'],
    policy: ['polizza', 'polizza assicurativa', 'certificato di assicurazione'],
    bankStatement: ['estratto conto', 'estratto conto corrente'],
    offer: ['preventivo', 'offerta'],
  },
  till: {
    paid: ['contanti', 'resto(?= ?:? ?(?:rm|rs\\.?|kr|eur|usd|chf)? ?[^a-z\\n]{0,3}\\d)', 'pagamento (?:elettronico|contante|carta)', 'bancomat'],
    till: ['cassa(?= ?:? ?(?:rm|rs\\.?|kr|eur|usd|chf)? ?[^a-z\\n]{0,3}\\d)', 'cassier[ea]', 'scontrino n\\.?'],
    thanks: ['grazie e arrivederci', 'grazie per (?:il vostro acquisto|la visita)'],
  },
};
