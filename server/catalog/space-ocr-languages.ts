/**
 * A space's OCR languages as stored in spaces.ocr_languages: a JSON array of tesseract codes, in the order tesseract
 * gets them. NULL, or anything that is not such an array (a hand edit gone wrong), means the defaults.
 */
export function readOcrLanguages(raw: string | null): string[] | null {
  if (raw === null) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) && parsed.length > 0 && parsed.every((l) => typeof l === 'string')
      ? (parsed as string[])
      : null;
  } catch {
    return null;
  }
}
