import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArchiveDocumentDetail } from '../../common/archive-types.ts';
import { startHarness, uploadAndProcess, type Harness } from '../helpers/archive-harness.ts';
import { corruptEntry, encodePng, textImage } from './pipeline-fixtures.ts';

/** Through the running service: the analysis runs in a worker thread of the pool, and its result is stored. */
describe('text extraction in the service', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ limits: { requestsPerWindow: 10_000, uploadsPerWindow: 10_000 } });
  });
  afterAll(async () => {
    await h.close();
  });

  const detail = async (id: string): Promise<ArchiveDocumentDetail> =>
    ((await (await h.api(`/v1/documents/${id}`)).json()) as { document: ArchiveDocumentDetail }).document;

  it('a corrupt DOCX finishes completed, with a processing note and no text', async () => {
    const docx = readFileSync(resolve(import.meta.dirname, '../fixtures/formats/sample.docx'));
    const id = await uploadAndProcess(h, {
      bytes: corruptEntry(docx, 'word/document.xml'),
      name: 'kaputt.docx',
      type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    });
    const document = await detail(id);
    expect(document.status).toBe('completed');
    expect(document.error).toBeNull();
    expect(document.content).toBe('');
    expect(document.processing_note).toMatch(/^The DOCX file could not be read \(.+\); no text was extracted\.$/);
  });

  it("a scanned PNG is OCR'd in the worker pool, with its confidence in extracted_data", async () => {
    const png = encodePng(
      textImage(['Kfz-Versicherung Beitragsrechnung', 'Versicherungsnummer 12-345-678'], { size: 30 }),
    );
    const id = await uploadAndProcess(h, { bytes: png, name: 'scan.png', type: 'image/png' });
    const document = await detail(id);
    expect(document.status).toBe('completed');
    expect(document.content).toContain('Beitragsrechnung');
    expect(document.content).toContain('12-345-678');
    expect(document.page_count).toBe(1);
    expect(document.processing_note).toBeNull();
    expect(document.extracted_data.ocr_confidence).toMatchObject({ source: 'ocr' });
  });
});
