import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderDocuments } from '../../scripts/eval/render-documents.ts';
import { detectFormat } from '../../shared/formats/detect-format.ts';

const INVOICE = `<html><body style="font-family:sans-serif">
<h1>Invoice</h1><p>Exemplar Widgets Ltd</p><p>Invoice no. EW-1042</p><p>Total due £ 120.00</p>
</body></html>`;

const truth = (render: string, paper = 'a4') => ({
  event_type: 'invoice',
  sender_name: 'Exemplar Widgets Ltd',
  reference_number: 'EW-1042',
  amount: { value: 120, currency: 'GBP' },
  document_date: '2026-05-04',
  due_date: null,
  render,
  paper,
});

describe('the rendered-documents set: HTML sources printed and scanned by Chromium', () => {
  let sources = '';
  let out = '';
  beforeAll(() => {
    sources = mkdtempSync(join(tmpdir(), 'rendered-src-'));
    out = mkdtempSync(join(tmpdir(), 'rendered-out-'));
    for (const [name, render, paper] of [
      ['001-en-invoice', 'pdf', 'a4'],
      ['002-en-invoice', 'scan', 'a4'],
      ['003-en-receipt', 'photo', 'receipt'],
    ] as const) {
      writeFileSync(join(sources, `${name}.html`), INVOICE);
      writeFileSync(join(sources, `${name}.json`), JSON.stringify(truth(render, paper)));
    }
  });
  afterAll(() => {
    rmSync(sources, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  });

  it('writes a PDF or a JPEG scan per source, with a truth in the corpus format, and renders only what changed', async () => {
    expect(await renderDocuments(sources, out)).toBe(3);
    expect((await detectFormat(join(out, '001-en-invoice.pdf')))?.format).toBe('pdf');
    expect((await detectFormat(join(out, '002-en-invoice.jpg')))?.format).toBe('jpeg');
    expect((await detectFormat(join(out, '003-en-receipt.jpg')))?.format).toBe('jpeg');
    const pdfTruth = JSON.parse(readFileSync(join(out, '001-en-invoice.json'), 'utf8')) as Record<string, unknown>;
    expect(pdfTruth).toMatchObject({ file: '001-en-invoice.pdf', language: 'en', reference_number: 'EW-1042' });
    expect(pdfTruth.text).toContain('Total due £ 120.00');
    expect(pdfTruth).not.toHaveProperty('render');
    const scanTruth = JSON.parse(readFileSync(join(out, '002-en-invoice.json'), 'utf8')) as Record<string, unknown>;
    expect(scanTruth.distortion).toMatch(/^skew /);

    expect(await renderDocuments(sources, out)).toBe(0);
    // A source turned from a PDF into a scan is rendered again, and its old file goes.
    writeFileSync(join(sources, '001-en-invoice.json'), JSON.stringify(truth('scan')));
    expect(await renderDocuments(sources, out)).toBe(1);
    expect(readdirSync(out).filter((f) => f.startsWith('001-'))).toEqual(['001-en-invoice.jpg', '001-en-invoice.json']);
  }, 120_000);
});
