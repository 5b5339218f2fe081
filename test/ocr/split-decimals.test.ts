/** OCR's gap after a decimal point on till print ("39. 80") is closed; a numbered item's gap is kept. Invented text. */
import { describe, expect, it } from 'vitest';
import { joinSplitDecimals } from '../../server/ocr/split-decimals.ts';
import type { OcrWord } from '../../server/ocr/tesseract-workers.ts';

const word = (text: string, left: number, top = 100): OcrWord => ({
  text,
  left,
  top,
  width: text.length * 12,
  height: 20,
});

describe('amounts split at the decimal point', () => {
  it('joins the two parts at a line end or before more figures', () => {
    const text = 'TOTAL : EUR 39. 80\nCASH 50, 00 RM\nCHANGE 10. 20 -\nItem 4. 15 2. 30';
    expect(joinSplitDecimals({ text, confidence: 0.8, words: [] }).text).toBe(
      'TOTAL : EUR 39.80\nCASH 50, 00 RM\nCHANGE 10.20 -\nItem 4.15 2.30',
    );
  });

  it('keeps the gap before words, and where more than two digits follow', () => {
    const text = 'Step 2. 10 days to pay\nWeight 1. 25 kg\nRef 12. 345';
    expect(joinSplitDecimals({ text, confidence: 0.8, words: [] }).text).toBe(text);
  });

  it('joins the word boxes the same way, on the same line only', () => {
    const words = [word('TOTAL', 10), word('39.', 100), word('80', 140), word('Next', 10, 140), word('7.', 100, 140)];
    const joined = joinSplitDecimals({ text: 'TOTAL 39. 80\nNext 7.\n', confidence: 0.8, words }).words;
    expect(joined.map((w) => w.text)).toEqual(['TOTAL', '39.80', 'Next', '7.']);
    expect(joined[1]).toMatchObject({ left: 100, width: 140 + 24 - 100 });
  });
});
