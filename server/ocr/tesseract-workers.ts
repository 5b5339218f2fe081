import Tesseract from 'tesseract.js';
import { asError, errorMessage } from '../../common/errors.ts';
import { toTiff, type GrayImage } from './gray-image.ts';
import { assertLocalPath, forgetTessdata, hasLanguageData, tessdataDirectory } from './tessdata.ts';

/**
 * The tesseract.js workers of this thread: up to two recognizers, each holding one language model (a page's language
 * is often probed with one model and read with another, and the next page is likely to want the same two), and, when
 * its data is installed, one orientation-and-script detector. They are created on first use and kept, so a 300-page
 * scan loads the engine and the language data once, not per page. Each analysis worker thread has its own; nothing
 * is shared across threads.
 */

/** A recognised word and its box in pixels of the image it was read from. */
export interface OcrWord {
  text: string;
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface Recognition {
  text: string;
  /** Tesseract's mean word confidence, 0..1. */
  confidence: number;
  words: OcrWord[];
}

export interface OrientationGuess {
  /** Clockwise rotation that makes the text upright: 0, 90, 180 or 270. */
  correction: number;
  /** Tesseract's orientation confidence: how far the best orientation beats the others (higher is surer). */
  confidence: number;
  script: string | null;
}

const CREATE_TIMEOUT_MS = 120_000;
const RECOGNIZE_TIMEOUT_MS = 300_000;
const DETECT_TIMEOUT_MS = 60_000;

/** The options every worker is created with; exported so a test can check that nothing can reach the network. */
export async function workerOptions(legacy: boolean): Promise<Partial<Tesseract.WorkerOptions>> {
  const langPath = await tessdataDirectory();
  assertLocalPath(langPath);
  return {
    langPath,
    // The data is read from langPath, already local: a cache would only write a second copy.
    cacheMethod: 'none',
    cachePath: langPath,
    gzip: true,
    legacyCore: legacy,
    legacyLang: legacy,
    // Without a handler tesseract.js throws failures from a message callback, which would kill the thread.
    errorHandler: () => {},
  };
}

interface Slot {
  worker: Promise<Tesseract.Worker>;
  languages: string;
}

/** Recognizers kept per thread: each is ~30-60 MB of wasm heap, and a page needs at most two models. */
const MAX_RECOGNIZERS = 2;
/** Least recently used first. */
let recognizers: Slot[] = [];
let detector: Promise<Tesseract.Worker | null> | undefined;

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${Math.round(ms / 1000)} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** After an engine failed to start, OCR is not attempted again in this thread for a while (each try costs a thread). */
const RETRY_START_AFTER_MS = 5 * 60_000;
const startFailures = new Map<boolean, { error: Error; at: number }>();

async function createTesseract(languages: string, oem: Tesseract.OEM, legacy: boolean): Promise<Tesseract.Worker> {
  const failure = startFailures.get(legacy);
  if (failure && Date.now() - failure.at < RETRY_START_AFTER_MS) throw failure.error;
  // tesseract.js reports a failed language load or initialisation only to errorHandler, and then leaves its
  // creation promise pending forever: the handler turns that into a failure here, the timeout covers the rest.
  let failStart: (error: Error) => void = () => {};
  const failed = new Promise<never>((_, reject) => {
    failStart = reject;
  });
  failed.catch(() => {});
  const options = {
    ...(await workerOptions(legacy)),
    errorHandler: (reason: unknown) => failStart(new Error(`OCR engine: ${String(reason)}`)),
  };
  try {
    const worker = await withTimeout(
      Promise.race([Tesseract.createWorker(languages, oem, options), failed]),
      CREATE_TIMEOUT_MS,
      'Starting the OCR engine',
    );
    // From here on, failures reach the caller through the promise of the job that failed.
    failStart = () => {};
    // Tesseract's diagnostics ("Too few characters", resolution guesses) would otherwise go to the server's stderr.
    await worker.setParameters({ debug_file: '/dev/null' });
    threadOf(worker)?.unref();
    startFailures.delete(legacy);
    return worker;
  } catch (error) {
    startFailures.set(legacy, { error: asError(error), at: Date.now() });
    // Damaged copies of the language data would fail every later start too.
    await forgetTessdata().catch(() => undefined);
    throw error;
  }
}

type NodeThread = { ref(): void; unref(): void };
const threadOf = (worker: Tesseract.Worker): NodeThread | null =>
  (worker as Tesseract.Worker & { worker?: NodeThread | null }).worker ?? null;
const activeCalls = new WeakMap<NodeThread, number>();

/**
 * Runs a call on a tesseract worker with its thread referenced: an idle tesseract thread must not keep a process
 * alive on its own (a CLI run, a test file), but one at work must, or the process could exit under an await.
 */
async function busy<T>(worker: Tesseract.Worker, call: () => Promise<T>): Promise<T> {
  const thread = threadOf(worker);
  if (thread) {
    activeCalls.set(thread, (activeCalls.get(thread) ?? 0) + 1);
    thread.ref();
  }
  try {
    return await call();
  } finally {
    if (thread) {
      const left = (activeCalls.get(thread) ?? 1) - 1;
      activeCalls.set(thread, left);
      if (left === 0) thread.unref();
    }
  }
}

const clampDpi = (dpi: number): number => Math.round(Math.min(1200, Math.max(70, dpi)));

function imageFile(image: GrayImage, dpi: number): Buffer {
  const bytes = toTiff(image, clampDpi(dpi));
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Pages (or parts of pages) read per model in this thread: which models read a document is checked by tests. */
const readsByModel = new Map<string, number>();
export const recognitionsByModel = (): Map<string, number> => new Map(readsByModel);

/** Automatic page segmentation, as the tesseract command line uses (the API default is a single block). */
async function withReadingParameters(worker: Tesseract.Worker): Promise<Tesseract.Worker> {
  await busy(worker, () =>
    worker.setParameters({ tessedit_pageseg_mode: Tesseract.PSM.AUTO, debug_file: '/dev/null' }),
  );
  return worker;
}

function recognizerFor(languages: readonly string[]): Slot {
  const key = languages.join('+');
  const found = recognizers.find((r) => r.languages === key);
  if (found) {
    recognizers = [...recognizers.filter((r) => r !== found), found];
    return found;
  }
  let worker: Promise<Tesseract.Worker>;
  if (recognizers.length >= MAX_RECOGNIZERS) {
    // The least recently used recognizer takes the new model: a reload, not a new engine.
    const previous = recognizers.shift()!;
    // Initialising resets every parameter: the page segmentation mode is set again, or the page would be read as
    // one block from then on (and a document's reading would depend on which documents came before it).
    worker = previous.worker.then(async (w) => {
      await busy(w, () => w.reinitialize(key, Tesseract.OEM.LSTM_ONLY));
      return withReadingParameters(w);
    });
  } else {
    worker = createTesseract(key, Tesseract.OEM.LSTM_ONLY, false).then(withReadingParameters);
  }
  const slot = { languages: key, worker };
  recognizers.push(slot);
  return slot;
}

/**
 * Recognises one page image (any size; the caller bounds it) with the given model(s); `dpi` helps tesseract judge
 * sizes. Words come with their boxes.
 */
export async function recognize(image: GrayImage, languages: readonly string[], dpi: number): Promise<Recognition> {
  const slot = recognizerFor(languages);
  readsByModel.set(slot.languages, (readsByModel.get(slot.languages) ?? 0) + 1);
  try {
    const worker = await slot.worker;
    const result = await busy(worker, () =>
      withTimeout(
        worker.recognize(imageFile(image, dpi), {}, { text: true, tsv: true }),
        RECOGNIZE_TIMEOUT_MS,
        'OCR of a page',
      ),
    );
    return {
      text: result.data.text,
      confidence: Math.max(0, Math.min(1, result.data.confidence / 100)),
      words: wordsOfTsv(result.data.tsv ?? ''),
    };
  } catch (error) {
    // A worker that failed or hung is discarded; the next page gets a fresh one.
    await dropRecognizer(slot);
    throw new Error(errorMessage(error), { cause: error });
  }
}

/** Tesseract's TSV: level 5 rows are words (level, page, block, paragraph, line, word, left, top, width, height, conf, text). */
export function wordsOfTsv(tsv: string): OcrWord[] {
  const words: OcrWord[] = [];
  for (const line of tsv.split('\n')) {
    const cells = line.split('\t');
    if (cells[0] !== '5' || cells.length < 12) continue;
    const text = cells.slice(11).join('\t').trim();
    if (!text) continue;
    const [left, top, width, height] = cells.slice(6, 10).map(Number) as [number, number, number, number];
    words.push({ text, left, top, width, height });
  }
  return words;
}

async function dropRecognizer(slot: Slot): Promise<void> {
  recognizers = recognizers.filter((r) => r !== slot);
  await slot.worker
    .then(
      (w) => w.terminate(),
      () => undefined,
    )
    .catch(() => undefined);
}

async function resetRecognizers(): Promise<void> {
  const slots = recognizers;
  recognizers = [];
  await Promise.all(
    slots.map((slot) =>
      slot.worker
        .then(
          (w) => w.terminate(),
          () => undefined,
        )
        .catch(() => undefined),
    ),
  );
}

let osdEnabled = true;
/** Turns tesseract's orientation detection off (tests of the fallback; a machine where it misbehaves). */
export function setOrientationDetection(enabled: boolean): void {
  osdEnabled = enabled;
}

/** Whether orientation detection can run (enabled, and its data package installed). */
export const osdAvailable = (): boolean => osdEnabled && hasLanguageData('osd');

/**
 * Tesseract's orientation and script detection on a page image; null when it cannot tell (too little text) or
 * is not available.
 */
export async function detectOrientation(image: GrayImage, dpi: number): Promise<OrientationGuess | null> {
  if (!osdAvailable()) return null;
  detector ??= createTesseract('osd', Tesseract.OEM.TESSERACT_ONLY, true).catch(() => null);
  const worker = await detector;
  if (!worker) return null;
  try {
    const { data } = await busy(worker, () =>
      withTimeout(worker.detect(imageFile(image, dpi)), DETECT_TIMEOUT_MS, 'Orientation detection'),
    );
    if (data.orientation_degrees === null || data.orientation_confidence === null) return null;
    // Measured, not documented: for a page turned 90° clockwise tesseract reports 270, the clockwise turn that undoes it.
    return {
      correction: ((data.orientation_degrees % 360) + 360) % 360,
      confidence: data.orientation_confidence,
      script: data.script,
    };
  } catch {
    const stale = detector;
    detector = undefined;
    await stale.then((w) => w?.terminate()).catch(() => undefined);
    return null;
  }
}

/** Ends this thread's tesseract workers (tests, benchmarks, shutdown); they are re-created on the next use. */
export async function shutdownOcr(): Promise<void> {
  const stale = detector;
  detector = undefined;
  await Promise.all([resetRecognizers(), stale?.then((w) => w?.terminate()).catch(() => undefined)]);
}
