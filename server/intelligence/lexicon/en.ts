/** English vocabulary of invoices, receipts, contracts and letters. */

import type { Lexicon } from './types.ts';

export const en: Lexicon = {
  language: 'en',
  months: [
    ['january', 'jan'], ['february', 'feb', 'febr'], ['march', 'mar'], ['april', 'apr'], ['may'], ['june', 'jun'],
    ['july', 'jul'], ['august', 'aug'], ['september', 'sept', 'sep'], ['october', 'oct'], ['november', 'nov'], ['december', 'dec'],
  ],
  weekdays: [
    ['monday', 'mon'], ['tuesday', 'tues', 'tue'], ['wednesday', 'wed'], ['thursday', 'thurs', 'thur', 'thu'], ['friday', 'fri'],
    ['saturday', 'sat'], ['sunday', 'sun'],
  ],
  numberWords: {
    one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, fourteen: 14, fifteen: 15,
    twenty: 20, 'twenty-one': 21, thirty: 30, 'forty-five': 45, sixty: 60, ninety: 90, twelve: 12,
  },
  periodUnits: {
    day: 'calendar days?|days?', businessDay: 'business days?|working days?|banking days?', week: 'weeks?',
    month: "months?|month's|calendar months?", year: 'years?',
  },
  within: ['within', 'in', 'of', 'after', 'from', 'net'],
  immediate: ['due (?:immediately|upon receipt|on receipt)', 'payable (?:immediately|upon receipt|on receipt)', 'payment due on receipt',
    'cash on delivery'],
  ordinal: '(?:st|nd|rd|th)',
  dateJoiners: ['of'],
  labels: {
    total: ['grand total', 'invoice total', 'total amount', 'total due', 'amount due', 'balance due', 'total payable', 'amount payable',
      'total (?:incl\\.?|including|inc\\.?) (?:vat|tax|gst)', 'total', 'nett total', 'rounded total', 'amount to pay'],
    subtotal: ['sub-? ?total', 'net amount', 'net total', 'total (?:excl\\.?|excluding|before) (?:vat|tax|gst)', 'total before rounding'],
    tax: ['vat', 'sales tax', 'gst', 'sst', 'tax', 'tax amount', 'service tax', 'service charge'],
    dueDate: ['due date', 'date due', 'payment due(?: date| on| by)?', 'pay by', 'payable by', 'due (?:on|by)'],
    documentDate: ['invoice date', 'date of invoice', 'date of issue', 'issue date', 'document date', 'bill date', 'receipt date', 'date'],
    invoiceNumber: ['invoice (?:no\\.?|number|#|nr\\.?|id)', 'inv\\.? ?(?:no\\.?|#)', 'bill (?:no\\.?|number|#)', 'tax invoice (?:no\\.?|number)'],
    creditNoteNumber: ['credit ?note (?:no\\.?|number|#)', 'credit memo (?:no\\.?|number|#)'],
    orderNumber: ['order (?:no\\.?|number|#|id|ref\\.?)', 'purchase order(?: no\\.?| number)?', 'po (?:no\\.?|number|#)', 'sales order(?: no\\.?)?',
      'delivery note(?: no\\.?)?'],
    customerNumber: ['customer (?:no\\.?|number|#|id)', 'client (?:no\\.?|number|#|id)', 'account (?:no\\.?|number)', 'member(?:ship)? (?:no\\.?|number)'],
    vatId: ['vat (?:no|reg|number|id)\\.?(?: ?no\\.?)?', 'gst (?:no|reg|id|number)\\.?(?: ?no\\.?)?', 'sst (?:no|reg|id)\\.?(?: ?no\\.?)?',
      'tax (?:id|number|reg(?:istration)?(?: no\\.?)?)', 'tin', 'abn', 'company (?:no|number|reg)\\.?', 'registration (?:no\\.?|number)',
      'co\\.? reg\\.? no\\.?', 'reg\\.? no\\.?'],
    paymentTerms: ['payment terms?', 'terms', 'payable', 'payment', 'due', 'net', 'pay'],
    contractStart: ['start date', 'commencement(?: date)?', 'commences(?: on)?', 'begins(?: on)?', 'effective(?: date| from)?', 'term (?:starts|begins)(?: on)?'],
    contractEnd: ['end date', 'ends(?: on)?', 'expir(?:y|es|ation)(?: date| on)?', 'term (?:ends|expires)(?: on)?', 'valid (?:until|till|through|to)',
      'renewal date'],
    noticePeriod: ['notice period', 'period of notice', 'notice of termination', '(?:written )?notice', 'terminate'],
    sender: ['from', 'seller', 'supplier', 'vendor', 'issued by', 'sold by', 'merchant'],
  },
  documentTypes: {
    invoice: ['invoice', 'tax invoice', 'vat invoice', 'commercial invoice', 'bill'],
    receipt: ['receipt', 'cash receipt', 'sales receipt', 'payment receipt', 'cash sale', 'official receipt'],
    creditNote: ['credit note', 'credit memo', 'credit invoice'],
    reminder: ['payment reminder', 'reminder', 'final reminder', 'final notice', 'overdue notice', 'past due notice', 'second notice'],
    contract: ['contract', 'agreement', 'tenancy agreement', 'lease'],
    payslip: ['payslip', 'pay slip', 'pay stub', 'paystub', 'pay advice', 'earnings statement', 'salary statement', 'wage slip'],
    taxNotice: ['tax assessment', 'notice of assessment', 'tax notice', 'tax bill', 'tax demand'],
    policy: ['insurance policy', 'policy schedule', 'certificate of insurance', 'policy document'],
    bankStatement: ['bank statement', 'account statement', 'statement of account', 'credit card statement'],
    offer: ['quotation', 'quote', 'estimate', 'proposal'],
  },
  till: {
    // Beside a number only: "CASH 50.00", "CHANGE 7.60"; the words alone are everywhere.
    paid: ['cash(?= ?:? ?(?:rm|rs\\.?|kr|eur|usd|chf)? ?[^a-z\\n]{0,3}\\d)', 'change(?: due)?(?= ?:? ?(?:rm|rs\\.?|kr|eur|usd|chf)? ?[^a-z\\n]{0,3}\\d)', '(?:amount )?tendered', 'paid by card', 'card payment', 'contactless'],
    till: ['cashier', 'counter(?= ?:? ?(?:rm|rs\\.?|kr|eur|usd|chf)? ?[^a-z\\n]{0,3}\\d)', 'terminal(?: id| no\\.?)?(?= ?:? ?(?:rm|rs\\.?|kr|eur|usd|chf)? ?[^a-z\\n]{0,3}\\d)', 'trans(?:action)? (?:no|id)\\.?'],
    thanks: ['thank you for (?:shopping|your purchase|your visit|coming)', '(?:please )?come again', 'see you again'],
  },
};
