import { describe, expect, it } from 'vitest';
import type { EventView } from '../../common/ipc.ts';
import { formFromEvent, validateEventForm } from '../../renderer/src/lib/event-form.ts';
import { translate } from '../../common/i18n/translate.ts';
import { eventWording, missingPrompt } from '../../renderer/src/lib/event-prompt.ts';

const needsInput: EventView = {
  id: '1b4e28ba-2fa1-41d2-883f-0016d3cca427',
  document_id: '6f1d2b1c-5c1e-4a8e-9a57-8f2a7d4f0b11',
  space_id: '0c2a7f0e-8d55-4b53-9d6b-2f0f8f0e6d3a',
  event_type: 'invoice',
  state: 'needs_input',
  title: 'Rechnung',
  amount: null,
  due_date: null,
  reference_number: null,
  sender_name: 'Stadtwerke',
  created_at: '2026-11-01T00:00:00Z',
  updated_at: '2026-11-01T00:00:00Z',
};
const open: EventView = {
  ...needsInput,
  state: 'open',
  amount: { value: 89.5, currency: 'EUR' },
  due_date: '2026-12-15',
  reference_number: 'R-1',
};

describe('event edit form', () => {
  it('refuses an amount of zero or less unless the event is a credit note', () => {
    const r = validateEventForm(needsInput, { ...formFromEvent(needsInput), amount: '-5' });
    expect(!r.ok && r.errors.amount?.key).toBe('meta.err.amountPositive');
    const credit = validateEventForm(needsInput, {
      ...formFromEvent(needsInput),
      event_type: 'credit_note',
      amount: '-5',
    });
    expect(credit.ok).toBe(true);
  });
  it('prefills from the event (EUR when there is no amount yet) and asks a needs_input invoice for its amount', () => {
    expect(formFromEvent(needsInput)).toEqual({
      event_type: 'invoice',
      amount: '',
      currency: 'EUR',
      due_date: '',
      reference_number: '',
    });
    expect(formFromEvent(open)).toEqual({
      event_type: 'invoice',
      amount: '89.5',
      currency: 'EUR',
      due_date: '2026-12-15',
      reference_number: 'R-1',
    });
    expect(missingPrompt(needsInput)).toBe('event.amountMissing');
    expect(missingPrompt({ ...needsInput, amount: { value: 1, currency: 'EUR' } })).toBe('event.detailsMissing');
    expect(missingPrompt(open)).toBeNull();
  });

  it("names a contract's notice event as the last day to give notice, as Due does, and other notices as received", () => {
    const contract: EventView = { ...open, event_type: 'contract', state: 'active', due_date: '2099-03-31' };
    const deadline: EventView = { ...open, event_type: 'notice', amount: null, due_date: '2098-12-31' };
    const words = (event: EventView, events: EventView[]): string[] => {
      const wording = eventWording(event, events);
      return [translate('de', wording.type), translate('de', wording.date)];
    };
    expect(words(deadline, [deadline, contract])).toEqual(['Kündigungsfrist', 'Letzter Tag für die Kündigung']);
    expect(words(deadline, [deadline, { ...contract, event_type: 'policy' }])[0]).toBe('Kündigungsfrist');
    expect(translate('en', eventWording(deadline, [contract, deadline]).type)).toBe('Notice deadline');
    // A notice on its own (a tax assessment, a reminder to pay) is one received, due like a bill.
    expect(words(deadline, [deadline])).toEqual(['Bescheid', 'Fällig am']);
    expect(words(contract, [deadline, contract])).toEqual(['Vertrag', 'Fällig am']);
  });

  it('sends only what changed, parsed by the contract (German decimals, currency upper case)', () => {
    const r = validateEventForm(needsInput, {
      ...formFromEvent(needsInput),
      amount: '1.234,56',
      currency: 'chf',
      due_date: '2026-12-31',
    });
    expect(r).toEqual({
      ok: true,
      changed: true,
      patch: { id: needsInput.id, amount: { value: 1234.56, currency: 'CHF' }, due_date: '2026-12-31' },
    });
    expect(validateEventForm(open, formFromEvent(open))).toEqual({ ok: true, changed: false, patch: { id: open.id } });
  });

  it('an emptied field is cleared with null; a changed type is sent', () => {
    const r = validateEventForm(open, {
      event_type: 'receipt',
      amount: ' ',
      currency: 'EUR',
      due_date: '',
      reference_number: '',
    });
    expect(r).toEqual({
      ok: true,
      changed: true,
      patch: { id: open.id, event_type: 'receipt', amount: null, due_date: null, reference_number: null },
    });
  });

  it('names each invalid field with the message shown next to it', () => {
    const r = validateEventForm(needsInput, {
      event_type: 'bill',
      amount: '12x',
      currency: 'EURO',
      due_date: '2026-02-30',
      reference_number: 'x'.repeat(501),
    });
    expect(r).toEqual({
      ok: false,
      errors: {
        event_type: { key: 'event.err.type' },
        amount: { key: 'meta.err.amount' },
        currency: { key: 'meta.err.currency' },
        due_date: { key: 'meta.err.date' },
        reference_number: { key: 'meta.err.tooLong', params: { max: 500 } },
      },
    });
    expect(validateEventForm(needsInput, { ...formFromEvent(needsInput), amount: '10', currency: '' })).toEqual({
      ok: false,
      errors: { currency: { key: 'meta.err.amountWithoutCurrency' } },
    });
  });
});
