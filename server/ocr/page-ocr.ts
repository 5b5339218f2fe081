import { analysePageGeometry } from './deskew.ts';
import { downscaleToFit, hasInk, rotate, type GrayImage } from './gray-image.ts';
import { detectOrientation, recognize, type OrientationGuess, type Recognition } from './tesseract-workers.ts';

/** What OCR made of one page. */
export interface PageOcr {
  text: string;
  /** 0..1, tesseract's mean word confidence of the reading that was kept. */
  confidence: number;
  /** Clockwise rotation applied before the reading that was kept (turn + deskew), in degrees. */
  rotation: number;
  /** Script seen by orientation detection, when it ran. */
  script: string | null;
}

/** A first reading at least this confident is kept without questioning the orientation. */
const CONFIDENT = 0.72;
/** Orientation detection is believed above this confidence (tesseract's margin over the runner-up). */
const OSD_TRUSTED = 1.5;
/** Orientation detection looks at a copy of about this size (~200 DPI for A4): plenty for it, and faster. */
const OSD_PIXELS = 4_000_000;
/** Rotations under this (degrees) are left to tesseract, which copes with them. */
const MIN_DESKEW = 0.3;

const normalise = (degrees: number): number => ((degrees % 360) + 360) % 360;

const words = (text: string): number => text.match(/\p{L}{2,}/gu)?.length ?? 0;

/** Whether reading `b` is better than `a`: more confident, or nearly as confident with clearly more words. */
function better(a: Recognition, b: Recognition): boolean {
  if (b.confidence > a.confidence + 0.02) return true;
  return b.confidence > a.confidence - 0.02 && words(b.text) > words(a.text) * 1.2;
}

/**
 * Reads one page image, upright or not. Skew (±10°) and a sideways page come from projection profiles, which
 * are cheap; upside down (or which way a sideways page is turned) is only asked when needed: tesseract's
 * orientation detection when its data is installed, otherwise a second reading turned by 180°, keeping whichever
 * is more confident.
 */
export async function ocrPage(image: GrayImage, dpi: number, languages: readonly string[]): Promise<PageOcr> {
  if (!hasInk(image)) return { text: '', confidence: 0, rotation: 0, script: null };
  const geometry = analysePageGeometry(image);
  const skew = Math.abs(geometry.skew) >= MIN_DESKEW ? -geometry.skew : 0;
  let rotation = normalise(skew + (geometry.sideways ? 90 : 0));
  let script: string | null = null;
  /** undefined: not asked yet; null: asked, no trustworthy answer. */
  let orientation: OrientationGuess | null | undefined;

  const turned = (degrees: number): GrayImage => (normalise(degrees) === 0 ? image : rotate(image, normalise(degrees)));
  const askOrientation = async (degrees: number): Promise<OrientationGuess | null> => {
    const full = turned(degrees);
    const view = downscaleToFit(full, OSD_PIXELS);
    const guess = await detectOrientation(view, (dpi * view.width) / full.width);
    script = guess?.script ?? script;
    return guess && guess.confidence >= OSD_TRUSTED ? guess : null;
  };

  // A sideways page is turned one way or the other: a coin toss without asking first.
  if (geometry.sideways) {
    orientation = await askOrientation(rotation);
    if (orientation) rotation = normalise(rotation + orientation.correction);
  }

  const read = async (degrees: number): Promise<Recognition> => recognize(turned(degrees), languages, dpi);
  let best = await read(rotation);
  let bestAt = rotation;
  if (best.confidence >= CONFIDENT && words(best.text) >= 3) return { ...best, rotation: bestAt, script };

  // A weak first reading: maybe the page is upside down, or turned the other way than guessed.
  const candidates: number[] = [];
  if (orientation === undefined) {
    orientation = await askOrientation(bestAt);
    // Detection says the page is upright as read: a poor scan, which another turn will not help.
    if (orientation?.correction === 0) return { ...best, rotation: bestAt, script };
    if (orientation) candidates.push(normalise(bestAt + orientation.correction));
  }
  // Without a trusted answer: upside down, and for a page the profiles called sideways also the upright reading
  // (a page full of table rules can look sideways to them).
  if (!orientation) candidates.push(normalise(bestAt + 180), ...(geometry.sideways ? [normalise(skew)] : []));
  for (const candidate of candidates) {
    if (Math.abs(candidate - bestAt) < 0.01) continue;
    const reading = await read(candidate);
    if (better(best, reading)) {
      best = reading;
      bestAt = candidate;
    }
  }
  return { ...best, rotation: bestAt, script };
}
