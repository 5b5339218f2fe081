import { detectLanguage } from '../intelligence/language.ts';
import { ISO_LANGUAGE, tesseractCode } from './tessdata.ts';

/** A language guess below this confidence is no reason to choose a model. */
const SURE_ENOUGH = 0.5;

/**
 * The model (tesseract code) among `models` whose language text read from a page is clearly in; null when the text
 * does not say (too few words, or a split vote).
 */
export function chooseModel(text: string, models: readonly string[]): string | null {
  const among = models.map((code) => ISO_LANGUAGE[code]).filter((iso): iso is string => iso !== undefined);
  const guess = detectLanguage(text, { among });
  if (!guess || guess.confidence < SURE_ENOUGH) return null;
  const code = tesseractCode(guess.language);
  return code !== null && models.includes(code) ? code : null;
}
