import type { TextBox } from '../intelligence/layout-types.ts';
import { analysePageGeometry } from './deskew.ts';
import { evenBackground } from './even-background.ts';
import { downscaleToFit, hasInk, rotate, type GrayImage } from './gray-image.ts';
import { chooseModel } from './page-language.ts';
import { clearSurroundings } from './page-surroundings.ts';
import { probeRegion } from './probe-region.ts';
import { enlargeSmallPrint } from './small-print.ts';
import { joinSplitDecimals } from './split-decimals.ts';
import {
  detectOrientation,
  recognize,
  type OcrWord,
  type OrientationGuess,
  type Recognition,
} from './tesseract-workers.ts';

/** What OCR made of one page. */
export interface PageOcr {
  text: string;
  /** 0..1, tesseract's mean word confidence of the reading that was kept. */
  confidence: number;
  /** Clockwise rotation applied before the reading that was kept (turn + deskew), in degrees. */
  rotation: number;
  /** Script seen by orientation detection, when it ran. */
  script: string | null;
  /** The language model (tesseract code) of the reading that was kept; null for a blank page. */
  model: string | null;
  /** The page's height over its width, as read (after the rotation). */
  aspect: number;
  /** The words and where they stand on the page as read, in fractions of it (origin top left). */
  boxes: TextBox[];
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
  // Tesseract is confident about a page it found (almost) no words on.
  if (words(b.text) < Math.min(3, words(a.text))) return false;
  if (b.confidence > a.confidence + 0.02) return true;
  return b.confidence > a.confidence - 0.02 && words(b.text) > words(a.text) * 1.2;
}

/**
 * Reads one page image, upright or not, in its language. The surface around a photographed page is cleared
 * (page-surroundings.ts) and small print enlarged (small-print.ts) first. Skew
 * (±10°) and a sideways page come from projection profiles, which are cheap; upside down (or which way a sideways
 * page is turned) is only asked when needed:
 * tesseract's orientation detection when its data is installed, otherwise a second reading turned by 180°, keeping
 * whichever is more confident.
 *
 * The language: `languages` are the models the page may be read with (a space's setting, or all installed). With
 * one, it reads the page. With several, a band of the page is read first with one model (English when allowed: its
 * words survive most Latin-script text) and its text tells the language; the page is then read with that model
 * alone. When the band does not tell, the whole page read with the band's model may, and is kept if it does not. `hint` (the previous page's model) skips the band: the page is read with it, and read again only when its
 * text says it is in another of the languages.
 */
export async function ocrPage(
  original: GrayImage,
  originalDpi: number,
  languages: readonly string[],
  hint: string | null = null,
): Promise<PageOcr> {
  if (!hasInk(original))
    return {
      text: '',
      confidence: 0,
      rotation: 0,
      script: null,
      model: null,
      aspect: original.height / original.width,
      boxes: [],
    };
  const { image, dpi } = enlargeSmallPrint(clearSurroundings(original), originalDpi);
  const geometry = analysePageGeometry(image);
  const skew = Math.abs(geometry.skew) >= MIN_DESKEW ? -geometry.skew : 0;
  let rotation = normalise(skew + (geometry.sideways ? 90 : 0));
  let script: string | null = null;
  /** undefined: not asked yet; null: asked, no trustworthy answer. */
  let orientation: OrientationGuess | null | undefined;

  // Each turn is made once: the probe, the reading and the word boxes all look at the same turned page.
  const turns = new Map<number, GrayImage>([[0, image]]);
  const turned = (degrees: number): GrayImage => {
    const key = normalise(degrees);
    let page = turns.get(key);
    if (!page) turns.set(key, (page = rotate(image, key)));
    return page;
  };
  const askOrientation = async (degrees: number): Promise<OrientationGuess | null> => {
    const full = turned(degrees);
    const view = downscaleToFit(full, OSD_PIXELS);
    const guess = await detectOrientation(view, (dpi * view.width) / full.width);
    script = guess?.script ?? script;
    return guess && guess.confidence >= OSD_TRUSTED ? guess : null;
  };

  /** Turns that orientation detection talked us out of: read again if its turn still reads weakly. */
  const overruled: number[] = [];
  const follow = (guess: OrientationGuess): void => {
    if (guess.correction === 0) return;
    overruled.push(rotation);
    rotation = normalise(rotation + guess.correction);
  };

  // A sideways page is turned one way or the other: a coin toss without asking first.
  if (geometry.sideways) {
    orientation = await askOrientation(rotation);
    if (orientation) follow(orientation);
  }

  let model = languages[0] ?? 'eng';
  /** A reading of the whole page already made with `model`, when the language probe was one. */
  let first: Recognition | null = null;
  if (languages.length > 1 && hint !== null && languages.includes(hint)) {
    model = hint;
    first = await recognize(turned(rotation), [model], dpi);
    const other = chooseModel(first.text, languages);
    if (other !== null && other !== model) {
      model = other;
      first = null;
    }
  } else if (languages.length > 1) {
    const probeModel = languages.includes('eng') ? 'eng' : model;
    const probe = async (): Promise<{ reading: Recognition; whole: boolean }> => {
      const page = turned(rotation);
      const region = probeRegion(page, dpi);
      return { reading: await recognize(region, [probeModel], dpi), whole: region === page };
    };
    let probed = await probe();
    // A probe that reads almost nothing may be an upside-down page: orientation first, then the language.
    if (orientation === undefined && (probed.reading.confidence < CONFIDENT || words(probed.reading.text) < 3)) {
      orientation = await askOrientation(rotation);
      if (orientation && orientation.correction !== 0) {
        follow(orientation);
        probed = await probe();
      }
    }
    const chosen = chooseModel(probed.reading.text, languages);
    model = chosen ?? probeModel;
    if (probed.whole && model === probeModel) first = probed.reading;
    if (chosen === null) {
      // The band did not say (a receipt's header, a table of figures): the whole page read with the probe's model may.
      first ??= await recognize(turned(rotation), [probeModel], dpi);
      const fromPage = chooseModel(first.text, languages);
      if (fromPage !== null && fromPage !== probeModel) {
        model = fromPage;
        first = null;
      }
    }
  }

  /** Whether the page is read with its paper evened out (faint or unevenly lit print), from the first weak reading on. */
  let evened = false;
  const read = async (degrees: number): Promise<Recognition> =>
    recognize(evened ? evenBackground(turned(degrees), dpi) : turned(degrees), [model], dpi);
  let best = first ?? (await read(rotation));
  let bestAt = rotation;
  const result = (): PageOcr => pageResult(best, bestAt, turned(bestAt), script, model);
  if (readsWell(best)) return result();

  // A weak reading: faint print first (the commoner cause), read again with the paper evened out.
  evened = true;
  const plain = best;
  best = await read(bestAt);
  if (!readsMore(plain, best)) {
    evened = false;
    best = plain;
  }
  if (readsWell(best)) return result();

  // Still weak: maybe the page is upside down, or turned the other way than guessed.
  const candidates: number[] = [];
  if (orientation === undefined) {
    orientation = await askOrientation(bestAt);
    // Detection says the page is upright as read (a poor scan, which another turn will not help): no turns.
    if (orientation && orientation.correction !== 0) candidates.push(normalise(bestAt + orientation.correction));
  }
  // Without a trusted answer: upside down, and for a page the profiles called sideways also the upright reading
  // (a page full of table rules can look sideways to them). A page the profiles called sideways gets both even with
  // a trusted answer: detection is sure of the wrong turn often enough on a narrow roll of figures, and what reads
  // better decides.
  if (!orientation || geometry.sideways) {
    candidates.push(normalise(bestAt + 180), ...(geometry.sideways ? [normalise(skew)] : []));
  }
  // Detection can be sure and wrong on an upright page too (it took a receipt's few faint lines for upside-down
  // Greek): the turn it replaced gets its reading. (A sideways page has both of its turns above; its unturned
  // reading is a reading across the lines, which can score well on garbage.)
  if (!geometry.sideways) candidates.push(...overruled);
  const readAt = bestAt;
  for (const candidate of new Set(candidates)) {
    if (Math.abs(candidate - bestAt) < 0.01) continue;
    const reading = await read(candidate);
    if (better(best, reading)) {
      best = reading;
      bestAt = candidate;
    }
  }
  // The language was judged on the page as first turned: now that it reads upright, its text may say otherwise.
  if (bestAt !== readAt && languages.length > 1) {
    const upright = chooseModel(best.text, languages);
    if (upright !== null && upright !== model) {
      model = upright;
      best = await read(bestAt);
    }
  }
  return result();
}

const readsWell = (reading: Recognition): boolean => reading.confidence >= CONFIDENT && words(reading.text) >= 3;

/**
 * Whether reading `b` of the same page gets more of it right than `a`: more words times their mean confidence,
 * and not much less confident (a page of specks read as many short words is no gain).
 */
function readsMore(a: Recognition, b: Recognition): boolean {
  return b.confidence > a.confidence - 0.1 && words(b.text) * b.confidence > words(a.text) * a.confidence * 1.1;
}

function pageResult(
  raw: Recognition,
  rotation: number,
  page: GrayImage,
  script: string | null,
  model: string,
): PageOcr {
  const reading = joinSplitDecimals(raw);
  return {
    text: reading.text,
    confidence: reading.confidence,
    rotation,
    script,
    model,
    aspect: page.height / page.width,
    boxes: reading.words.map((word) => boxOf(word, page)),
  };
}

const fraction = (value: number): number => Math.round(value * 10_000) / 10_000;

function boxOf(word: OcrWord, page: GrayImage): TextBox {
  return {
    text: word.text,
    x: fraction(word.left / page.width),
    y: fraction(word.top / page.height),
    width: fraction(word.width / page.width),
    height: fraction(word.height / page.height),
  };
}
