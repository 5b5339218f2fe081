import { describe, expect, it } from 'vitest';
import { translate } from '../../common/i18n/translate.ts';
import type { CallOutput } from '../../common/ipc.ts';
import {
  bulkChanges,
  bulkPatch,
  CLEAR,
  documentPatch,
  emptyBulkForm,
  formFromDocument,
  normalTags,
} from '../../renderer/src/lib/document-edit.ts';
import { documentType } from '../../renderer/src/lib/document-type.ts';

type Detail = CallOutput<'documents.get'>;
const CATEGORY = '0b7f3a52-5c1e-4d6a-9a34-3c0c2a6f9e11';
const OTHER = '5d1c9e84-2b7a-4f3e-8c61-7a9b0e2d4f33';

const doc = {
  id: '2b0c1126-fa24-44fb-ba4f-3bd5292ea7dd',
  space_id: '9f0a1b2c-3d4e-4f5a-8b6c-7d8e9f0a1b2c',
  title: 'Rechnung 42',
  sender_name: 'Stadtwerke',
  document_date: '2026-11-03',
  category_id: CATEGORY,
  category_name: 'Utilities',
  tags: ['Haus', 'Strom'],
  extracted_data: { event_type: { value: 'invoice', source: 'rules', confidence: 0.9 } },
} as unknown as Detail;

describe("the Document screen's correction form", () => {
  it('starts from the document and sends nothing when nothing changed', () => {
    const form = formFromDocument(doc);
    expect(form).toEqual({
      title: 'Rechnung 42',
      sender_name: 'Stadtwerke',
      document_date: '2026-11-03',
      category_id: CATEGORY,
      event_type: 'invoice',
      tags: ['Haus', 'Strom'],
    });
    expect(documentPatch(doc, form)).toEqual({ ok: true, changed: false, patch: { id: doc.id } });
    // The same tags in another order, or typed again with spaces, are no change either.
    expect(documentPatch(doc, { ...form, tags: [' Strom', 'Haus', 'haus'] })).toMatchObject({ changed: false });
  });

  it('sends only what changed; an emptied sender, date or category is cleared with null', () => {
    const form = {
      ...formFromDocument(doc),
      title: '  Strom November ',
      sender_name: '',
      document_date: '',
      category_id: '',
      event_type: 'receipt',
      tags: ['Strom', 'Keller'],
    };
    expect(documentPatch(doc, form)).toEqual({
      ok: true,
      changed: true,
      patch: {
        id: doc.id,
        title: 'Strom November',
        sender_name: null,
        document_date: null,
        category_id: null,
        event_type: 'receipt',
        tags: ['Strom', 'Keller'],
      },
    });
  });

  it('names the field a bad value is in, as the service would refuse it', () => {
    const form = formFromDocument(doc);
    // An empty title is missing, not too long: the message says so (it said "of at most 500 characters").
    expect(documentPatch(doc, { ...form, title: '   ' })).toEqual({
      ok: false,
      errors: { title: { key: 'docEdit.err.titleRequired' } },
    });
    expect(translate('en', 'docEdit.err.titleRequired')).toBe('Enter a title.');
    expect(translate('de', 'docEdit.err.titleRequired')).toBe('Geben Sie einen Titel ein.');
    expect(documentPatch(doc, { ...form, title: 'x'.repeat(501) })).toEqual({
      ok: false,
      errors: { title: { key: 'docEdit.err.titleTooLong' } },
    });
    expect(documentPatch(doc, { ...form, sender_name: 'x'.repeat(501) })).toEqual({
      ok: false,
      errors: { sender_name: { key: 'meta.err.tooLong', params: { max: 500 } } },
    });
    expect(documentPatch(doc, { ...form, document_date: '2026-02-30' })).toEqual({
      ok: false,
      errors: { document_date: { key: 'meta.err.date' } },
    });
    expect(documentPatch(doc, { ...form, tags: ['x'.repeat(101)] })).toEqual({
      ok: false,
      errors: { tags: { key: 'meta.err.tagTooLong' } },
    });
    expect(documentPatch(doc, { ...form, tags: Array.from({ length: 51 }, (_, i) => `t${i}`) })).toEqual({
      ok: false,
      errors: { tags: { key: 'docEdit.err.tooManyTags', params: { max: 50 } } },
    });
  });

  it("reads the document's type from its extracted fields, and never sends an empty one (the service cannot clear it)", () => {
    expect(documentType(doc)).toBe('invoice');
    const untyped = { ...doc, extracted_data: {} } as Detail;
    expect(documentType(untyped)).toBeNull();
    expect(documentType({ extracted_data: { event_type: { value: 'bill' } } })).toBeNull();
    expect(documentPatch(untyped, formFromDocument(untyped))).toMatchObject({ ok: true, changed: false });
  });
});

describe('bulk edit', () => {
  it('changes nothing for empty fields, and asks for at least one change', () => {
    expect(bulkChanges(emptyBulkForm())).toBe(false);
    expect(bulkChanges({ ...emptyBulkForm(), add_tags: [' '] })).toBe(false);
    expect(bulkPatch(doc, emptyBulkForm())).toEqual({ ok: true, changed: false, patch: { id: doc.id } });
  });

  it("adds and removes tags per document, keeping each one's own", () => {
    const form = { ...emptyBulkForm(), add_tags: ['Keller', 'strom'], remove_tags: ['haus'] };
    expect(bulkChanges(form)).toBe(true);
    expect(bulkPatch(doc, form)).toEqual({ ok: true, changed: true, patch: { id: doc.id, tags: ['Strom', 'Keller'] } });
    expect(bulkPatch({ ...doc, tags: [] }, form)).toMatchObject({ patch: { tags: ['Keller', 'strom'] } });
  });

  it('sets sender, date, type and category, clears the category on request, and skips what is already so', () => {
    const form = {
      ...emptyBulkForm(),
      sender_name: 'Stadtwerke',
      document_date: '2026-12-01',
      category_id: OTHER,
      event_type: 'contract',
    };
    expect(bulkPatch(doc, form)).toEqual({
      ok: true,
      changed: true,
      patch: { id: doc.id, document_date: '2026-12-01', category_id: OTHER, event_type: 'contract' },
    });
    expect(bulkPatch(doc, { ...emptyBulkForm(), category_id: CLEAR })).toMatchObject({
      patch: { id: doc.id, category_id: null },
    });
    expect(bulkPatch({ ...doc, category_id: null }, { ...emptyBulkForm(), category_id: CLEAR })).toMatchObject({
      changed: false,
    });
    expect(bulkPatch(doc, { ...emptyBulkForm(), document_date: '31.12.2026' })).toMatchObject({
      ok: false,
      errors: { document_date: { key: 'meta.err.date' } },
    });
  });

  it('normalises tags: trimmed, none twice whatever the case, the first spelling kept', () => {
    expect(normalTags([' Strom ', 'strom', '', 'Haus', 'HAUS'])).toEqual(['Strom', 'Haus']);
  });
});
