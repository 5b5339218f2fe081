import { createCanvas, type Canvas } from '@napi-rs/canvas';
import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { grayFromRgba, type GrayImage } from '../../ocr/gray-image.ts';
import { MAX_OCR_PIXELS } from '../../ocr/image-decode.ts';
import { chooseModel } from '../../ocr/page-language.ts';
import { ocrPage, type PageOcr } from '../../ocr/page-ocr.ts';

/** Scans are rendered at print resolution, the resolution tesseract reads best. */
export const RENDER_DPI = 300;

/**
 * Renders scanned PDF pages (pages without a usable text layer) with pdf.js onto a @napi-rs/canvas and OCRs them.
 * One canvas serves every page of a document; its pixels are given back after each page, so memory stays at one
 * page image however long the PDF.
 */
export class PdfPageRenderer {
  private canvas: Canvas | null = null;
  /** The model that read the last page with text: the next page of the document is likely in the same language. */
  private lastModel: string | null = null;

  /** The page's text by OCR (empty for a blank page). */
  async ocr(page: PDFPageProxy, languages: readonly string[]): Promise<PageOcr> {
    const { image, dpi } = await this.render(page);
    const result = await ocrPage(image, dpi, languages, this.lastModel);
    if (result.boxes.length > 0) this.lastModel = result.model;
    return result;
  }

  /**
   * A page read from its text layer: its language, where the text shows it, is the first guess for the next scanned
   * page (a scanned attachment to a typed letter is in the letter's language even when its few lines do not say).
   */
  noteLanguage(text: string, languages: readonly string[]): void {
    this.lastModel = chooseModel(text, languages) ?? this.lastModel;
  }

  /** Renders one page to grayscale at RENDER_DPI, scaled down when that would exceed MAX_OCR_PIXELS (huge pages). */
  async render(page: PDFPageProxy): Promise<{ image: GrayImage; dpi: number }> {
    const unit = page.getViewport({ scale: 1 });
    let scale = RENDER_DPI / 72;
    const pixels = unit.width * unit.height * scale * scale;
    if (pixels > MAX_OCR_PIXELS) scale *= Math.sqrt(MAX_OCR_PIXELS / pixels);
    const viewport = page.getViewport({ scale });
    const width = Math.max(1, Math.floor(viewport.width));
    const height = Math.max(1, Math.floor(viewport.height));
    const canvas = (this.canvas ??= createCanvas(width, height));
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, width, height);
    try {
      await page.render({ canvas: null, canvasContext: context, viewport, background: '#ffffff' }).promise;
      return { image: grayFromRgba(context.getImageData(0, 0, width, height).data, width, height), dpi: 72 * scale };
    } finally {
      // Hand the ~35 MB of pixels back now; the next page sizes the canvas afresh.
      canvas.width = 1;
      canvas.height = 1;
    }
  }

  release(): void {
    if (this.canvas) {
      this.canvas.width = 1;
      this.canvas.height = 1;
    }
    this.canvas = null;
  }
}
