import { describe, expect, it } from 'vitest';
import { findAmounts, isPrintedAmount, pickAmount, type AmountCandidate } from '../../server/intelligence/amounts.ts';
import { labelValuePairs } from '../../server/intelligence/layout/label-value.ts';
import { layoutLines, linesOf } from '../../server/intelligence/layout/lines.ts';
import { receiptMerchant } from '../../server/intelligence/layout/receipt.ts';
import { findZones } from '../../server/intelligence/layout/zones.ts';
import type { PageLayout, TextBox } from '../../server/intelligence/layout-types.ts';
import { makeDoc } from '../../server/intelligence/text.ts';
import { understand } from '../../server/intelligence/understand.ts';

// Every name, address and number below is invented.

const A4 = 842 / 595;
/** A box in points on an A4 page (origin top left), turned into page fractions; about 0.5 pt per character of 11 pt type. */
function box(text: string, x: number, y: number, size = 11): TextBox {
  return { text, x: x / 595, y: y / 842, width: (text.length * size * 0.5) / 595, height: size / 842 };
}
const page = (boxes: TextBox[], aspect = A4): PageLayout => ({ page: 1, aspect, boxes });
/** The text a reader gives for the boxes: one line per row, cells separated by tabs. */
const textOf = (layout: PageLayout): string =>
  linesOf(layout)
    .map((line) => line.cells.map((c) => c.text).join('\t'))
    .join('\n');

/** A letter: a logo word, the recipient's window, the body, the sender's legal block in the footer. */
const letter = page([
  box('kranich', 460, 40, 20),
  box('Nordlicht Design GmbH', 57, 160),
  box('Am Hafen 3', 57, 174),
  box('20457 Hamburg', 57, 188),
  box('Rechnung', 57, 280, 14),
  box('Rechnungsdatum', 360, 280),
  box('12.03.2027', 470, 280),
  box('Für die Gestaltung der Broschüre berechnen wir:', 57, 320),
  ...Array.from({ length: 14 }, (_, i) => box(`Position ${i + 1}: Entwurf und Satz, Seite ${i + 1}`, 57, 336 + i * 14)),
  box('Gesamtbetrag', 360, 560),
  box('1.190,00 EUR', 470, 560),
  box('Kranich Software GmbH', 57, 770, 8),
  box('Registergericht Kiel HRB 4711 · USt-IdNr. DE999999999 · IBAN DE00 1234 5678 9012 3456 78', 57, 782, 8),
]);

describe('lines from boxes', () => {
  it('groups boxes on one baseline into a line, left to right, and splits cells at wide gaps', () => {
    const shuffled = page([
      box('EUR', 520, 420),
      box('Gesamtbetrag', 360, 420),
      box('1.190,00', 470, 421),
      box('Rechnung', 57, 280),
    ]);
    const lines = linesOf(shuffled);
    expect(lines.map((line) => line.cells.map((c) => c.text))).toEqual([
      ['Rechnung'],
      ['Gesamtbetrag', '1.190,00 EUR'],
    ]);
    expect(lines[1]!.top).toBeCloseTo(420 / 842, 3);
  });

  it('reads pages in order', () => {
    const two = layoutLines([{ ...page([box('second', 57, 100)]), page: 2 }, page([box('first', 57, 500)])]);
    expect(two.map((line) => line.text)).toEqual(['first', 'second']);
  });
});

describe('zones', () => {
  it('finds the address window, the letterhead above it and the legal block in the footer', () => {
    const zones = findZones(linesOf(letter));
    expect(zones.address).toEqual(['Nordlicht Design GmbH', 'Am Hafen 3', '20457 Hamburg']);
    expect(zones.letterhead).toContain('kranich');
    expect(zones.letterhead).not.toContain('Nordlicht Design GmbH');
    expect(zones.footer.join(' ')).toContain('Kranich Software GmbH');
    expect(zones.footer.join(' ')).toContain('HRB 4711');
  });

  it('takes a block opened by a salutation as the window, and the block beside it as letterhead', () => {
    const zones = findZones(
      linesOf(
        page([
          box('Herrn', 57, 150),
          box('Max Mustermann', 57, 164),
          box('Lindenweg 4', 57, 178),
          box('12345 Musterstadt', 57, 192),
          box('Blauwerk Tischlerei', 400, 150),
          box('Telefon 0000 123456', 400, 164),
        ]),
      ),
    );
    expect(zones.address).toEqual(['Herrn', 'Max Mustermann', 'Lindenweg 4', '12345 Musterstadt']);
    expect(zones.letterhead).toEqual(['Blauwerk Tischlerei', 'Telefon 0000 123456']);
  });

  it('leaves the return address over the window to the sender', () => {
    const windowed = page([
      box('kranich', 460, 40, 20),
      box('Kranich Software GmbH · Werftstraße 9 · 24103 Kiel', 57, 146, 7),
      box('Nordlicht Design GmbH', 57, 160),
      box('Am Hafen 3', 57, 174),
      box('20457 Hamburg', 57, 188),
    ]);
    expect(findZones(linesOf(windowed)).address).toEqual(['Nordlicht Design GmbH', 'Am Hafen 3', '20457 Hamburg']);
    const result = understand({
      text: textOf(windowed),
      layout: [windowed],
      filename: 'a.pdf',
      categories: [],
      einvoice: null,
      today: '2027-04-01',
    });
    expect(result.sender_name?.value).toBe('Kranich Software GmbH');
  });

  it('finds no zones without positions', () => {
    expect(findZones([])).toEqual({ letterhead: [], address: [], footer: [] });
  });
});

describe('the sender comes from the letterhead or the legal block, never from the address window', () => {
  const input = { filename: 'scan.pdf', categories: [], einvoice: null, today: '2027-04-01' };

  it('skips a company in the window and reads the sender from the footer', () => {
    const result = understand({ ...input, text: textOf(letter), layout: [letter] });
    expect(result.sender_name?.value).toBe('Kranich Software GmbH');
  });

  it('still reads text without positions through the line-based path', () => {
    const result = understand({ ...input, text: textOf(letter) });
    expect(result.amount?.value).toEqual({ value: 1190, currency: 'EUR' });
    expect(result.sender_name?.value).toBeDefined();
  });
});

describe('receipts', () => {
  const roll = (boxes: TextBox[]): PageLayout => ({ page: 1, aspect: 3, boxes });
  const row = (text: string, y: number, size = 0.012, x = 0.1): TextBox => ({
    text,
    x,
    y,
    width: text.length * 0.025,
    height: size,
  });
  const receipt = roll([
    row('Fresh bread every morning', 0.02),
    row('Pelikan Kiosk', 0.05, 0.02),
    row('Tel 0000 123 456', 0.08),
    row('12 Harbour Road', 0.09),
    row('Till 2 Cashier 7', 0.1),
    row('Coffee', 0.2),
    row('3.20', 0.2, 0.012, 0.7),
    row('Sandwich', 0.22),
    row('9.20', 0.22, 0.012, 0.7),
    row('TOTAL', 0.3),
    row('€ 12.40', 0.3, 0.012, 0.7),
    row('CASH', 0.32),
    row('€ 20.00', 0.32, 0.012, 0.7),
    row('CHANGE', 0.34),
    row('€ 7.60', 0.34, 0.012, 0.7),
    row('Thank you', 0.4),
  ]);

  it('takes the merchant from the top, in the largest type', () => {
    expect(receiptMerchant(linesOf(receipt))).toEqual({ text: 'Pelikan Kiosk', prominent: true });
    const result = understand({
      text: textOf(receipt),
      layout: [receipt],
      filename: 'r.jpg',
      categories: [],
      einvoice: null,
      today: '2027-04-01',
    });
    expect(result.sender_name?.value).toBe('Pelikan Kiosk');
  });

  it('prefers the name with a legal form under a shop sign, in any case', () => {
    const text = 'Kopi Pagi\nPELITA HARAPAN TRADING SDN BHD\n(123456-X)\nTotal RM 8.40\nCash RM 10.00\nChange RM 1.60';
    expect(
      understand({ text, filename: 'r.jpg', categories: [], einvoice: null, today: '2027-04-01' }).sender_name?.value,
    ).toBe('PELITA HARAPAN TRADING SDN BHD');
  });

  it('takes the paid total, confirmed by cash less change', () => {
    const result = understand({
      text: textOf(receipt),
      layout: [receipt],
      filename: 'r.jpg',
      categories: [],
      einvoice: null,
      today: '2027-04-01',
    });
    expect(result.amount?.value.value).toBe(12.4);
    expect(result.amount!.confidence).toBeGreaterThanOrEqual(0.9);
  });
});

describe('label and value', () => {
  it('pairs a label with the value under it, not one already to its right', () => {
    const lines = linesOf(
      page([
        box('Invoice date', 57, 200),
        box('Amount due', 300, 200),
        box('12.03.2027', 57, 214),
        box('€ 245.00', 300, 214),
        box('Total', 57, 400),
        box('245.00', 300, 400),
      ]),
    );
    expect(labelValuePairs(lines)).toEqual(['Invoice date 12.03.2027', 'Amount due € 245.00']);
  });

  it('pairs a label with a number under it that starts with a capital prefix and a dash', () => {
    const lines = linesOf(
      page([
        box('Contract no.', 57, 200),
        box('Signed on', 300, 200),
        box('KV-771204', 57, 214),
        box('02.05.2027', 300, 214),
      ]),
    );
    expect(labelValuePairs(lines)).toEqual(['Contract no. KV-771204', 'Signed on 02.05.2027']);
  });

  it("does not pair an item table's Total column with its first item's price", () => {
    const slip = (header: string) =>
      linesOf(
        page(
          [
            box(header, 20, 200),
            box('Total', 240, 200),
            box('1 Chicken rice set', 20, 214),
            box('12.90', 240, 214),
            box('with extra egg', 20, 228),
            box('2 Iced tea', 20, 242),
            box('5.80', 240, 242),
          ],
          3,
        ),
      );
    const totals = (header: string) => labelValuePairs(slip(header)).filter((pair) => pair.startsWith('Total'));
    expect(totals('Qty Item')).toEqual([]);
    expect(totals('Menge Artikel')).toEqual([]);
    // A label without an item column over one value is still its pair.
    expect(totals('Table 4')).toEqual(['Total 12.90']);
  });
});

describe('choosing the amount by consistency', () => {
  const amountOf = (text: string): number | undefined => {
    const doc = makeDoc(text);
    return pickAmount(doc.lines, findAmounts(doc, new Map()), { eventType: 'invoice', language: 'en', text })?.value;
  };

  it('reads a totals line of net and gross as the gross', () => {
    expect(amountOf('Widgets 2 x 9.25\nTotal 18.50 22.20')).toBe(22.2);
  });

  it('takes the gross when the total picked is net plus a listed tax', () => {
    expect(amountOf('Total 18.50\nVAT 20 % 3.70\n22.20 GBP')).toBe(22.2);
  });

  it('does not take a later amount equal to the total plus a discount for the gross', () => {
    expect(amountOf('Subtotal 25.00\nCoupon discount 5.00\nTotal 20.00\nItems before coupon\n25.00')).toBe(20);
    expect(amountOf('Subtotal 25.00\nRabatt 5,00\nGesamt 20,00\nListenpreis\n25,00')).toBe(20);
  });

  it('takes the rounded total over the total before rounding, not the adjustment', () => {
    expect(amountOf('Total 52.08\nRounding -0.03\nRounded total 52.05\nCash 60.00\nChange 7.95')).toBe(52.05);
  });

  it('takes the total that tendered less change gives, not a tax summary printed after it', () => {
    expect(amountOf('Subtotal 4.60\nTax 0.28\nTotal 4.90\nCash 10.00\nChange 5.10\nTax summary\nTotal 4.60 0.28')).toBe(
      4.9,
    );
  });

  it('reads a total that includes a tax in any language as the total, not as the tax', () => {
    expect(amountOf('Sub-total 40.00\nGST 2.40\nTotal Sales (Inclusive of GST) 42.40\nService charge 4.00')).toBe(42.4);
  });

  it('takes what is left to pay after a prepayment printed near the total', () => {
    expect(amountOf('Total TTC 600,00 €\nSolde à payer 420,00 €\nAcompte versé le 02/03/2027 180,00 €')).toBe(420);
    expect(amountOf('Total 600.00 EUR\nBalance 420.00 EUR\nWire transfer received 150.00 EUR')).toBe(600);
  });

  it('does not take a year, a postcode or a quantity for an amount', () => {
    const candidate = (text: string, line: string, extra: Partial<AmountCandidate> = {}): boolean => {
      const start = line.indexOf(text);
      return isPrintedAmount(
        {
          value: Number(text.replace(/[^\d.]/g, '')),
          currency: 'EUR',
          start,
          end: start + text.length,
          text,
          decimals: false,
          line: 0,
          label: 'none',
          prose: false,
          ...extra,
        },
        line,
      );
    };
    expect(candidate('2026', 'EUR 2026 annual statement, March 2026')).toBe(false);
    expect(candidate('10115', '10115 Berlin EUR')).toBe(false);
    expect(candidate('4.50', 'Qty 4.50', { decimals: true })).toBe(false);
    expect(candidate('4.50', 'Postage 4.50', { decimals: true })).toBe(true);
  });
});

describe('sender and document date of any layout', () => {
  const input = { filename: 'scan.pdf', categories: [], einvoice: null, today: '2027-04-01' };

  it('reads a contract party after "between" without the word', () => {
    const text =
      'Mietvertrag\nZwischen Hausverwaltung Lindenhof GmbH, Gartenstraße 5, 12345 Musterstadt (Vermieter)\nund\n' +
      'Herrn Max Mustermann, Lindenweg 4, 12345 Musterstadt (Mieter)\nwird folgender Vertrag geschlossen.';
    expect(understand({ ...input, text }).sender_name?.value).toBe('Hausverwaltung Lindenhof GmbH');
  });

  it('does not take the date a copy was printed for the document date', () => {
    const letter = 'Ostwind Gerüstbau GmbH\nKiel, 12.03.2027\nSehr geehrte Damen und Herren,\nanbei unser Angebot.';
    expect(understand({ ...input, text: `Date printed: 20.03.2027 14:05\n${letter}` }).document_date?.value).toBe(
      '2027-03-12',
    );
    expect(understand({ ...input, text: `Printed on 20.03.2027 14:05\n${letter}` }).document_date?.value).toBe(
      '2027-03-12',
    );
  });
});

describe('confidence of a currency symbol several countries share', () => {
  const pick = (text: string) => {
    const doc = makeDoc(text);
    return pickAmount(doc.lines, findAmounts(doc, new Map()), { eventType: 'invoice', language: 'en', text });
  };

  it('is lower when the document names no country to tell which dollar it is', () => {
    const bare = pick('Invoice\nTotal due $120.00');
    const named = pick('Invoice\nToronto, Ontario, Canada\nTotal due $120.00');
    const coded = pick('Invoice\nTotal due USD 120.00');
    expect(bare?.currency).toBe('USD');
    expect(named?.currency).toBe('CAD');
    expect(bare!.confidence).toBeLessThan(0.8);
    expect(named!.confidence).toBeGreaterThanOrEqual(0.9);
    expect(coded!.confidence).toBeGreaterThanOrEqual(0.9);
  });
});
