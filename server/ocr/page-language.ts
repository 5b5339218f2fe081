import { detectLanguage } from '../intelligence/language.ts';
import { ISO_LANGUAGE, tesseractCode } from './tessdata.ts';

/** A language guess below this confidence keeps the model the text was read with. */
const SURE_ENOUGH = 0.5;

/**
 * The model (tesseract code) a page should be read with, among `models`, judged from text read from it with
 * `readWith`: the language the text is in when it is clear, else `readWith` (a model that reads the page acceptably
 * already beats a guess).
 */
export function chooseModel(text: string, models: readonly string[], readWith: string): string {
  const among = models.map((code) => ISO_LANGUAGE[code]).filter((iso): iso is string => iso !== undefined);
  const guess = detectLanguage(text, { among });
  if (!guess || guess.confidence < SURE_ENOUGH) return readWith;
  const code = tesseractCode(guess.language);
  return code !== null && models.includes(code) ? code : readWith;
}
