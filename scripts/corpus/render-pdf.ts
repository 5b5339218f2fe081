/** Draws a layout into a PDF with the 14 standard fonts (WinAnsi covers ä ö ü ß €), so the text layer is exact. */
import { PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { STANDARD_FONTS, type FontKey, type Layout } from './layout.ts';
import type { Rgb } from './model.ts';

const color = (c: Rgb) => rgb(c[0] / 255, c[1] / 255, c[2] / 255);

export interface PdfInfo {
  title: string;
  author: string;
  subject?: string;
  date: Date;
}

export async function drawLayout(pdf: PDFDocument, layout: Layout): Promise<PDFPage[]> {
  const fonts = new Map<FontKey, PDFFont>();
  const font = async (key: FontKey): Promise<PDFFont> => {
    let f = fonts.get(key);
    if (!f) {
      f = await pdf.embedFont(STANDARD_FONTS[key]);
      fonts.set(key, f);
    }
    return f;
  };
  const out: PDFPage[] = [];
  for (const page of layout.pages) {
    const p = pdf.addPage([page.width, page.height]);
    const h = page.height;
    for (const op of page.ops) {
      if (op.kind === 'text') {
        p.drawText(op.text, { x: op.x, y: h - op.y, size: op.size, font: await font(op.font), color: color(op.color) });
      } else if (op.kind === 'line') {
        p.drawLine({
          start: { x: op.x1, y: h - op.y1 },
          end: { x: op.x2, y: h - op.y2 },
          thickness: op.width,
          color: color(op.color),
        });
      } else {
        p.drawRectangle({ x: op.x, y: h - op.y - op.h, width: op.w, height: op.h, color: color(op.color) });
      }
    }
    out.push(p);
  }
  return out;
}

export function setInfo(pdf: PDFDocument, info: PdfInfo): void {
  pdf.setTitle(info.title);
  pdf.setAuthor(info.author);
  if (info.subject) pdf.setSubject(info.subject);
  pdf.setProducer('corpus generator (pdf-lib)');
  pdf.setCreator(info.author);
  pdf.setCreationDate(info.date);
  pdf.setModificationDate(info.date);
}

export async function renderTextPdf(layout: Layout, info: PdfInfo): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  setInfo(pdf, info);
  await drawLayout(pdf, layout);
  return pdf.save({ useObjectStreams: true });
}

/** A scanned document: every page is one JPEG, nothing else (no text layer). */
export async function renderImagePdf(
  pages: Array<{ jpeg: Uint8Array; widthPt: number; heightPt: number }>,
  info: PdfInfo,
): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  setInfo(pdf, { ...info, title: info.title });
  pdf.setProducer('ScanSnap Manager #S1300i');
  pdf.setCreator('ScanSnap Manager #S1300i');
  for (const page of pages) {
    const image = await pdf.embedJpg(page.jpeg);
    const p = pdf.addPage([page.widthPt, page.heightPt]);
    p.drawImage(image, { x: 0, y: 0, width: page.widthPt, height: page.heightPt });
  }
  return pdf.save({ useObjectStreams: true });
}
