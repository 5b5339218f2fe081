/**
 * Where text stands on a page, the same shape whichever reader found it (pdf.js text items, tesseract words), so the
 * understanding can read a label's value to its right or below it, and tell a letterhead from an address window.
 */

/** A run of text (a pdf.js text item, an OCR word) and its box, in fractions of the page (0..1, origin top left). */
export interface TextBox {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PageLayout {
  /** 1-based page number. */
  page: number;
  /** The page's height over its width (A4 portrait ≈ 1.41; a till receipt much more), to compare distances. */
  aspect: number;
  /** In reading order as the reader gave them; no order is promised. */
  boxes: TextBox[];
}
