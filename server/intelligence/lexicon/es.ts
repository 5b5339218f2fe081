/** Spanish vocabulary of invoices, receipts, contracts and letters. */

import type { Lexicon } from './types.ts';

/** "nº", "n.º", "no.", "núm.", "número" before or after a Spanish label. */
const NO = '(?:n\\.? ?[°ºo]\\.?|n[úu]m\\.?|n[úu]mero)';

export const es: Lexicon = {
  language: 'es',
  months: [
    ['enero', 'ene'], ['febrero', 'feb'], ['marzo', 'mar'], ['abril', 'abr'], ['mayo', 'may'], ['junio', 'jun'], ['julio', 'jul'],
    ['agosto', 'ago'], ['septiembre', 'setiembre', 'sept', 'sep', 'set'], ['octubre', 'oct'], ['noviembre', 'nov'], ['diciembre', 'dic'],
  ],
  weekdays: [['lunes'], ['martes'], ['miércoles', 'miercoles'], ['jueves'], ['viernes'], ['sábado', 'sabado'], ['domingo']],
  numberWords: {
    un: 1, uno: 1, una: 1, dos: 2, tres: 3, cuatro: 4, cinco: 5, seis: 6, siete: 7, ocho: 8, diez: 10, doce: 12, quince: 15,
    veinte: 20, treinta: 30, sesenta: 60, noventa: 90,
  },
  periodUnits: {
    day: 'd[íi]as?(?: naturales)?', businessDay: 'd[íi]as? h[áa]biles|d[íi]as? laborables', week: 'semanas?', month: 'mes(?:es)?',
    year: 'a[ñn]os?',
  },
  within: ['en un plazo de', 'en el plazo de', 'dentro de', 'en', 'a', 'de'],
  immediate: ['al contado', 'pago inmediato', 'a la recepci[óo]n(?: de la factura)?', 'contra reembolso'],
  ordinal: '(?:º|°|o)',
  dateJoiners: ['de', 'del'],
  labels: {
    total: ['total a pagar', 'importe total', 'total factura', 'total (?:con )?iva incluido', 'importe a pagar', 'total'],
    subtotal: ['subtotal', 'base imponible', 'importe neto', 'total sin iva', 'neto'],
    tax: ['iva', 'cuota(?: de)? iva', 'impuesto', 'igic'],
    dueDate: ['fecha de vencimiento', 'vencimiento', 'fecha l[íi]mite de pago', 'pagar antes del', 'vence el'],
    documentDate: ['fecha de (?:la )?factura', 'fecha de emisi[óo]n', 'fecha de expedici[óo]n', 'fecha'],
    invoiceNumber: [`factura ${NO}`, `${NO} (?:de )?factura`, 'n[úu]mero de factura', 'factura ?:'],
    creditNoteNumber: [`factura rectificativa ${NO}`, `${NO} (?:de )?(?:factura )?rectificativa`, `abono ${NO}`, `nota de cr[ée]dito ${NO}`],
    orderNumber: [`pedido ${NO}`, `${NO} (?:de )?pedido`, `albar[áa]n(?: ${NO})?`, `orden de compra(?: ${NO})?`],
    customerNumber: [`cliente ${NO}`, `${NO} (?:de )?cliente`, 'c[óo]digo (?:de )?cliente'],
    vatId: ['n\\.?i\\.?f\\.?', 'c\\.?i\\.?f\\.?', 'n\\.?i\\.?e\\.?', 'nif-?iva', 'vat', `${NO} (?:de )?iva`, 'registro mercantil'],
    paymentTerms: ['condiciones de pago', 'forma de pago', 'pago', 'pagadero', 'vencimiento', 'a pagar', 'transferencia'],
    contractStart: ['fecha de inicio', 'inicio del contrato', 'entrada en vigor', 'fecha de efecto', 'a partir del'],
    contractEnd: ['fecha de (?:fin|finalizaci[óo]n|vencimiento)', 'fin del contrato', 'hasta el', 'vigente hasta'],
    noticePeriod: ['preaviso', 'plazo de preaviso', 'rescisi[óo]n', 'resoluci[óo]n'],
    sender: ['proveedor', 'vendedor', 'emisor', 'raz[óo]n social'],
  },
  documentTypes: {
    invoice: ['factura', 'factura simplificada'],
    receipt: ['recibo', 'ticket de compra', 'ticket (?:n\\.? ?[°º]|no\\.?)', 'comprobante de (?:pago|venta)'],
    creditNote: ['factura rectificativa', 'nota de cr[ée]dito', 'factura de abono'],
    reminder: ['recordatorio de pago', 'reclamaci[óo]n de pago', 'requerimiento de pago', 'aviso de impago'],
    contract: ['contrato', 'contrato de arrendamiento'],
    payslip: ['n[óo]mina', 'recibo de salarios', 'recibo de n[óo]mina'],
    taxNotice: ['notificaci[óo]n tributaria', 'liquidaci[óo]n (?:provisional|tributaria)', 'agencia tributaria', 'impuesto sobre bienes inmuebles'],
    policy: ['p[óo]liza', 'p[óo]liza de seguro', 'condiciones particulares', 'certificado de seguro'],
    bankStatement: ['extracto (?:bancario|de cuenta|de movimientos)'],
    offer: ['presupuesto', 'oferta'],
  },
  till: {
    paid: ['efectivo', 'cambio(?= ?:? ?(?:rm|rs\\.?|kr|eur|usd|chf)? ?[^a-z\\n]{0,3}\\d)', 'entregado(?= ?:? ?(?:rm|rs\\.?|kr|eur|usd|chf)? ?[^a-z\\n]{0,3}\\d)', 'pago con tarjeta'],
    till: ['caja(?= ?:? ?(?:rm|rs\\.?|kr|eur|usd|chf)? ?[^a-z\\n]{0,3}\\d)', 'cajer[oa]', 'tpv'],
    thanks: ['gracias por su (?:compra|visita)', 'vuelva pronto'],
  },
};
