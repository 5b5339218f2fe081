import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArchiveDocumentDetail } from '../../common/archive-types.ts';
import { startHarness, uploadAndProcess, type Harness } from '../helpers/archive-harness.ts';
import { encodePng, textImage } from './pipeline-fixtures.ts';

/**
 * A space's ocr_languages reach the OCR in the worker pool. Observable without reaching into the worker: with one
 * configured language the OCR report sets the document language to it (with several, the text decides: German here).
 */
describe('OCR languages configured per space', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ limits: { requestsPerWindow: 10_000, uploadsPerWindow: 10_000 } });
  });
  afterAll(async () => {
    await h.close();
  });

  const scan = encodePng(
    textImage(
      [
        'Sehr geehrte Damen und Herren,',
        'anbei erhalten Sie die Beitragsrechnung für Ihre Versicherung.',
        'Bitte überweisen Sie den Betrag bis zum 15. März.',
      ],
      { size: 30 },
    ),
  );
  const detail = async (id: string): Promise<ArchiveDocumentDetail> =>
    ((await (await h.api(`/v1/documents/${id}`)).json()) as { document: ArchiveDocumentDetail }).document;
  const spaceWith = async (name: string, ocrLanguages: string | null): Promise<string> => {
    const id = await h.createSpace(name);
    h.sqlite.prepare('UPDATE spaces SET ocr_languages = ? WHERE id = ?').run(ocrLanguages, id);
    return id;
  };

  it('a space set to ["eng"] reads with English only; the default space with the model of the text\'s language', async () => {
    const english = await spaceWith('English only', '["eng"]');
    const [inEnglish, inDefault] = await Promise.all([
      uploadAndProcess(h, { bytes: scan, name: 'brief.png', type: 'image/png' }, { space_id: english }),
      uploadAndProcess(h, { bytes: scan, name: 'brief.png', type: 'image/png' }),
    ]);
    const [en, byDefault] = await Promise.all([detail(inEnglish), detail(inDefault)]);
    for (const document of [en, byDefault]) {
      expect(document.status).toBe('completed');
      expect(document.content).toContain('Beitragsrechnung');
      expect(document.processing_note).toBeNull();
    }
    expect(en.language).toBe('en');
    expect(byDefault.language).toBe('de');
  });

  it('a stored language without OCR data is named in the processing note, and the defaults read the scan', async () => {
    const japanese = await spaceWith('Hand-edited', '["jpn"]');
    const document = await detail(
      await uploadAndProcess(h, { bytes: scan, name: 'brief.png', type: 'image/png' }, { space_id: japanese }),
    );
    expect(document.content).toContain('Beitragsrechnung');
    expect(document.processing_note).toBe(
      'No OCR data for language(s) jpn; read with one of deu, eng, fra, nld, spa, ita.',
    );
    expect(document.language).toBe('de');
  });
});
