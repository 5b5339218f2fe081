import jsqr from 'jsqr';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { epcPayload, MAX_PAYLOAD_BYTES, type TransferFacts } from '../../renderer/src/lib/epc-payload.ts';
import { EPC_QR_OPTIONS, qrDrawing } from '../../renderer/src/lib/epc-qr.ts';
import { paymentFacts } from '../../renderer/src/lib/payment-facts.ts';

// The IBAN is the registry's published example; names and references are invented.
const bill: TransferFacts = {
  name: 'Stadtwerke Beispiel GmbH',
  iban: 'DE89 3704 0044 0532 0130 00',
  bic: 'COBADEFFXXX',
  amount: { value: 1190, currency: 'EUR' },
  reference: 'Rechnung 2027-0415',
};

describe('EPC QR payload (EPC069-12 v002)', () => {
  it("writes the fields in the standard's order, the text as unstructured remittance", () => {
    expect(epcPayload(bill)).toEqual({
      ok: true,
      payload:
        'BCD\n002\n1\nSCT\nCOBADEFFXXX\nStadtwerke Beispiel GmbH\nDE89370400440532013000\nEUR1190.00\n\n\nRechnung 2027-0415',
    });
  });

  it('puts a valid RF creditor reference in the structured field and ends there', () => {
    const result = epcPayload({ ...bill, reference: 'RF18 5390 0754 7034' });
    expect(result.ok && result.payload.split('\n')).toEqual([
      'BCD',
      '002',
      '1',
      'SCT',
      'COBADEFFXXX',
      'Stadtwerke Beispiel GmbH',
      'DE89370400440532013000',
      'EUR1190.00',
      '',
      'RF18539007547034',
    ]);
  });

  it('treats an RF reference with a wrong check as text', () => {
    const result = epcPayload({ ...bill, reference: 'RF18 5390 0754 7035' });
    expect(result.ok && result.payload.split('\n').slice(9)).toEqual(['', 'RF18 5390 0754 7035']);
  });

  it('leaves the BIC and the amount empty when unknown, and cuts trailing empty lines', () => {
    const result = epcPayload({ ...bill, bic: null, amount: null, reference: null });
    expect(result).toEqual({
      ok: true,
      payload: 'BCD\n002\n1\nSCT\n\nStadtwerke Beispiel GmbH\nDE89370400440532013000',
    });
  });

  it('writes cents with two digits and keeps names and texts on one line within their lengths', () => {
    const result = epcPayload({
      ...bill,
      amount: { value: 12.3, currency: 'EUR' },
      name: `A\nB ${'x'.repeat(80)}`,
      reference: 'y'.repeat(200),
    });
    const lines = result.ok ? result.payload.split('\n') : [];
    expect(lines[7]).toBe('EUR12.30');
    expect(lines[5]).toHaveLength(70);
    expect(lines[5]!.startsWith('A B x')).toBe(true);
    expect(lines[10]).toHaveLength(140);
  });

  it('refuses what a banking app could not pay', () => {
    expect(epcPayload({ ...bill, iban: 'DE89 3704 0044 0532 0130 01' })).toEqual({ ok: false, reason: 'no-iban' });
    expect(epcPayload({ ...bill, iban: null })).toEqual({ ok: false, reason: 'no-iban' });
    expect(epcPayload({ ...bill, name: '  ' })).toEqual({ ok: false, reason: 'no-name' });
    expect(epcPayload({ ...bill, amount: { value: 120, currency: 'CHF' } })).toEqual({ ok: false, reason: 'not-eur' });
    expect(epcPayload({ ...bill, amount: { value: -5, currency: 'EUR' } })).toEqual({
      ok: false,
      reason: 'amount-range',
    });
    expect(epcPayload({ ...bill, amount: { value: 1e9, currency: 'EUR' } })).toEqual({
      ok: false,
      reason: 'amount-range',
    });
  });

  it("fits the standard's QR code (error correction M, at most version 13) even at the longest fields", () => {
    const longest = epcPayload({
      ...bill,
      name: 'N'.repeat(70),
      reference: 'ü'.repeat(140),
      amount: { value: 999_999_999.99, currency: 'EUR' },
    });
    expect(longest.ok).toBe(true);
    expect(new TextEncoder().encode(longest.ok ? longest.payload : '').length).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
    const code = QRCode.create(longest.ok ? longest.payload : '', EPC_QR_OPTIONS);
    expect(code.version).toBeLessThanOrEqual(13);
    expect(code.errorCorrectionLevel.bit).toBe(
      QRCode.create('x', { errorCorrectionLevel: 'M' }).errorCorrectionLevel.bit,
    );
  });
});

describe("paymentFacts (the Document screen's payment card)", () => {
  const field = (value: string) => ({ value, source: 'text', confidence: 0.9 });
  const invoice = {
    id: 'e1',
    document_id: 'd1',
    space_id: 's',
    event_type: 'invoice' as const,
    state: 'open' as const,
    title: 'Invoice',
    amount: { value: 84.2, currency: 'EUR' },
    due_date: '2099-03-31',
    reference_number: 'RE-101',
    sender_name: null,
    created_at: '2099-01-01T00:00:00Z',
    updated_at: '2099-01-01T00:00:00Z',
  };

  it('takes the IBAN, BIC and payment reference from the fields and the amount from the payable event', () => {
    const facts = paymentFacts(
      {
        sender_name: 'Stadtwerke Beispiel GmbH',
        extracted_data: {
          iban: field('DE89370400440532013000'),
          bic: field('COBADEFFXXX'),
          payment_reference: field('KD 4821'),
        },
      },
      [invoice],
    );
    expect(facts).toMatchObject({
      payee: 'Stadtwerke Beispiel GmbH',
      iban: { compact: 'DE89370400440532013000', grouped: 'DE89 3704 0044 0532 0130 00' },
      bic: 'COBADEFFXXX',
      reference: 'KD 4821',
      amount: { value: 84.2, currency: 'EUR' },
    });
    expect(facts?.qr).toEqual({
      ok: true,
      payload: 'BCD\n002\n1\nSCT\nCOBADEFFXXX\nStadtwerke Beispiel GmbH\nDE89370400440532013000\nEUR84.20\n\n\nKD 4821',
    });
  });

  it("quotes the bill's number when no payment reference was printed, and shows nothing without account or reference", () => {
    const facts = paymentFacts(
      { sender_name: 'Stadtwerke', extracted_data: { iban: field('DE89370400440532013000') } },
      [invoice],
    );
    expect(facts?.reference).toBe('RE-101');
    expect(paymentFacts({ sender_name: 'Stadtwerke', extracted_data: {} }, [invoice])).toBeNull();
  });
});

describe('the drawn GiroCode', () => {
  /** The SVG path's 1×1 squares as pixels (4 per module), dark on white, as a camera would see the screen. */
  function pixels(payload: string): { data: Uint8ClampedArray; size: number } {
    const drawing = qrDrawing(payload);
    const scale = 4;
    const size = drawing.size * scale;
    const data = new Uint8ClampedArray(size * size * 4).fill(255);
    for (const [, x, y] of drawing.path.matchAll(/M(\d+) (\d+)h1v1h-1z/g)) {
      for (let dy = 0; dy < scale; dy++) {
        for (let dx = 0; dx < scale; dx++) {
          const at = ((Number(y) * scale + dy) * size + Number(x) * scale + dx) * 4;
          data.fill(0, at, at + 3);
        }
      }
    }
    return { data, size };
  }

  it('is read back by a QR decoder as the payload, umlauts included', () => {
    const result = epcPayload({ ...bill, name: 'Müller & Söhne Gärten', reference: 'RF18 5390 0754 7034' });
    const payload = result.ok ? result.payload : '';
    const { data, size } = pixels(payload);
    // The package is CommonJS: its typings name the function as the default export's `default`, which it also is at run time.
    expect(jsqr.default(data, size, size, { inversionAttempts: 'dontInvert' })?.data).toBe(payload);
  });
});
