/** English sample documents (UK and US conventions) with the fields a person would read from them. */

import type { Sample } from './sample-types.ts';

export const ENGLISH_SAMPLES: Sample[] = [
  {
    name: 'UK invoice with bill-to company, VAT, part payment and relative terms',
    filename: 'scan_0001.pdf',
    text: `Acme Ltd
1 High Street
London EC1A 1BB
VAT Reg No: GB 123 4567 89
INVOICE
Invoice No: INV-1001
Invoice Date: 15 Dec 2026
Customer No: C-778
Bill To:
Beta Holdings plc
22 Market Road
Manchester M1 2AB
Description Qty Unit Price Amount
Consulting services (December) 8 £125.00 £1,000.00
Subtotal £1,000.00
VAT (20%) £200.00
Total £1,200.00
Amount paid £200.00
Balance due £1,000.00
Payment terms: payment due within 30 days of the invoice date.
Please make payment to Acme Ltd, sort code 12-34-56, account number 12345678.
Thank you for your business!`,
    expect: {
      event_type: 'invoice',
      document_date: '2026-12-15',
      due_date: '2027-01-14',
      amount: { value: 1000, currency: 'GBP' },
      reference_number: 'INV-1001',
      sender_name: 'Acme Ltd',
      buyer_name: 'Beta Holdings plc',
      language: 'en',
      title: 'Invoice INV-1001 from Acme Ltd',
      category: 'Rechnungen',
      tags: ['invoice', 'acme', '2026'],
    },
  },
  {
    name: 'US invoice with month-first dates and Net 30',
    filename: 'invoice_4471.pdf',
    text: `Pinecrest Web Design LLC
4400 Oak Avenue
Portland, OR 97205
billing@pinecrestweb.com
Invoice #4471
Date: 12/05/2026
Terms: Net 30
Sold To:
Riverside Dental Group
88 River Street
Salem, OR 97301
Item Hours Rate Amount
Website redesign 24 $95.00 $2,280.00
Hosting (12 months) 1 $240.00 $240.00
Sales tax $0.00
Total Due $2,520.00
Make checks payable to Pinecrest Web Design LLC.`,
    expect: {
      event_type: 'invoice',
      document_date: '2026-12-05',
      due_date: '2027-01-04',
      amount: { value: 2520, currency: 'USD' },
      reference_number: '4471',
      sender_name: 'Pinecrest Web Design LLC',
      buyer_name: 'Riverside Dental Group',
      language: 'en',
      title: 'Invoice 4471 from Pinecrest Web Design LLC',
    },
  },
  {
    name: 'credit note referencing an invoice',
    filename: 'CN-311.pdf',
    text: `Bright Widgets Ltd
Unit 4, Castle Park
Cambridge CB3 0AX
CREDIT NOTE
Credit Note No: CN-311
Date: 6 January 2027
Original invoice: INV-0999 dated 10 December 2026
Customer: Jane Doe
Returned item: Widget Pro (damaged in transit)
Net amount £100.00
VAT 20% £20.00
Credit total £120.00
The credit has been applied to your account.`,
    expect: {
      event_type: 'credit_note',
      document_date: '2027-01-06',
      amount: { value: 120, currency: 'GBP' },
      reference_number: 'CN-311',
      sender_name: 'Bright Widgets Ltd',
      buyer_name: 'Jane Doe',
      title: 'Credit note CN-311 from Bright Widgets Ltd',
    },
    absent: ['due_date'],
  },
  {
    name: 'shop receipt with card payment',
    filename: 'receipt.jpg',
    text: `CORNER BOOKS
12 Elm Street, Boston, MA 02108
Tel (617) 555-0134
SALES RECEIPT
Receipt No. 000482
Dec 18, 2026 3:42 PM
The Old Man and the Sea 1 $14.99
Notebook A5 2 $9.98
Subtotal $24.97
Sales Tax 6.25% $1.56
TOTAL $26.53
VISA **** 4821 $26.53
Thank you for shopping with us!`,
    expect: {
      event_type: 'receipt',
      document_date: '2026-12-18',
      amount: { value: 26.53, currency: 'USD' },
      reference_number: '000482',
      language: 'en',
    },
    absent: ['due_date'],
  },
  {
    name: 'UK payslip with gross and net pay',
    filename: 'payslip_dec_2026.pdf',
    text: `Northwind Logistics Ltd
Payslip
Employee: Oliver Smith Employee No: 10457
Pay date: 31 December 2026 Tax code: 1257L NI number: QQ123456C
Period: December 2026
Payments
Basic salary £3,250.00
Overtime £180.00
Gross pay £3,430.00
Deductions
Income tax £431.40
National Insurance £205.20
Pension £171.50
Total deductions £808.10
Net pay £2,621.90
Year to date: Gross £40,120.00 Tax £5,120.40`,
    expect: {
      event_type: 'payslip',
      document_date: '2026-12-31',
      amount: { value: 2621.9, currency: 'GBP' },
      sender_name: 'Northwind Logistics Ltd',
      title: 'Payslip from Northwind Logistics Ltd, 31 December 2026',
    },
    // The employee number identifies the employee, not the document.
    absent: ['due_date', 'reference_number'],
  },
  {
    name: 'home insurance policy schedule',
    filename: 'policy.pdf',
    text: `Harbour Insurance plc
Harbour House, 5 Quay Street, Bristol BS1 4DB
POLICY SCHEDULE - HOME INSURANCE
Policy number: HH-99812-A
Policyholder: Mr Samuel Green
Insured address: 14 Willow Close, Bath BA2 3QT
Date of issue: 20 November 2026
Period of insurance: 01/12/2026 to 30/11/2027
Buildings cover sum insured £350,000.00
Contents cover sum insured £60,000.00
Excess £250.00
Annual premium £312.50 (including Insurance Premium Tax)
Your premium will be collected by direct debit.
Please read our privacy policy at www.harbour-insurance.co.uk/privacy.`,
    expect: {
      event_type: 'policy',
      document_date: '2026-11-20',
      amount: { value: 312.5, currency: 'GBP' },
      reference_number: 'HH-99812-A',
      sender_name: 'Harbour Insurance plc',
      category: 'Insurance',
      title: 'Policy schedule HH-99812-A from Harbour Insurance plc',
    },
  },
  {
    name: 'payment reminder with outstanding balance',
    filename: 'reminder.pdf',
    text: `Greenfield Utilities Inc.
PO Box 4400
Denver, CO 80202
January 5, 2027
Ms. Laura Chen
250 Pine Street
Boulder, CO 80302
PAYMENT REMINDER
Account number: 5500-2231
Dear Ms. Chen,
Our records show that invoice INV-2044 dated November 28, 2026 for $560.00 is now overdue.
Late fee $25.00
Outstanding balance $585.00
Please pay the outstanding balance by January 19, 2027 to avoid service interruption.
Sincerely,
Greenfield Utilities Inc.`,
    expect: {
      event_type: 'notice',
      document_date: '2027-01-05',
      due_date: '2027-01-19',
      amount: { value: 585, currency: 'USD' },
      reference_number: 'INV-2044',
      sender_name: 'Greenfield Utilities Inc.',
      buyer_name: 'Laura Chen',
      title: 'Payment reminder INV-2044 from Greenfield Utilities Inc.',
    },
  },
  {
    name: 'service agreement between two parties',
    filename: 'Service Agreement Blue Harbor.pdf',
    text: `SERVICE AGREEMENT
This Service Agreement (the "Agreement") is made on December 1, 2026
between
Blue Harbor Consulting Inc., 100 Main Street, Austin, TX 78701 ("Provider")
and
Lone Star Bakery LLC, 55 Congress Avenue, Austin, TX 78702 ("Client").
1. Services. The Provider shall deliver monthly bookkeeping services.
2. Term. This Agreement commences on January 1, 2027 and continues for twelve (12) months.
3. Fees. The Client shall pay a monthly fee of $1,500.00, payable within 15 days of each invoice.
4. Termination. Either party may terminate this Agreement with 30 days written notice.
IN WITNESS WHEREOF, the parties have signed this Agreement.
Signature: ____________ Signature: ____________`,
    expect: {
      event_type: 'contract',
      document_date: '2026-12-01',
      amount: { value: 1500, currency: 'USD' },
      sender_name: 'Blue Harbor Consulting Inc.',
      category: 'Verträge',
      title: 'Service agreement from Blue Harbor Consulting Inc., 1 December 2026',
    },
  },
  {
    name: 'bank account statement',
    filename: 'statement.pdf',
    text: `First Coastal Bank
Account Statement
Statement date: 31 December 2026
Statement period: 1 December 2026 - 31 December 2026
Account holder: Maria Lopez
Account number: 004-1188273
Opening balance $3,102.55
12/03 Direct deposit ACME PAYROLL +$2,400.00
12/10 Rent payment -$1,250.00
12/22 Card purchase GROCERY MART -$41.78
Closing balance $4,210.77`,
    expect: {
      event_type: 'statement',
      document_date: '2026-12-31',
      amount: { value: 4210.77, currency: 'USD' },
      sender_name: 'First Coastal Bank',
      buyer_name: 'Maria Lopez',
      category: 'Bank',
    },
    // A statement summarises an account; the account number is not a document reference.
    absent: ['due_date', 'reference_number'],
  },
  {
    name: 'quotation with validity date',
    filename: 'quote.pdf',
    text: `Summit Roofing Co.
77 Ridge Road
Denver, CO 80210
QUOTATION
Quote No. Q-5521
Date: December 9, 2026
Prepared for: Mr. Henry Adams
Replace asphalt shingles (2,100 sq ft) $6,900.00
Gutter replacement $900.00
Total $7,800.00
This quote is valid until January 31, 2027.`,
    expect: {
      event_type: 'offer',
      document_date: '2026-12-09',
      amount: { value: 7800, currency: 'USD' },
      reference_number: 'Q-5521',
      sender_name: 'Summit Roofing Co.',
      title: 'Quotation Q-5521 from Summit Roofing Co.',
      due_date: '2027-01-31',
    },
  },
  {
    name: 'personal letter with a subject',
    filename: 'IMG_4471.jpg',
    text: `Emily Carter
9 Orchard Lane
Oxford OX2 6HX
3rd January 2027
Customer Services
Thames Water
Re: Change of address for account holder
Dear Sir or Madam,
I am writing to let you know that I will move to a new address at the end of this month.
Please send all future letters to my new home from 1 February 2027.
Yours faithfully,
Emily Carter`,
    expect: {
      event_type: 'letter',
      document_date: '2027-01-03',
      sender_name: 'Emily Carter',
      language: 'en',
      title: 'Change of address for account holder from Emily Carter',
    },
    absent: ['amount', 'due_date'],
  },
];
