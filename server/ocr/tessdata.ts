import { statSync } from 'node:fs';
import { copyFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';

/**
 * Tesseract language data, from the `@tesseract.js-data/*` npm packages and nowhere else: nothing is ever
 * downloaded at run time. tesseract.js reads every language from one directory (`langPath`), while each language
 * is its own package, so the files are gathered into one local directory once per machine and package version.
 */

interface DataPackage {
  readonly name: string;
  readonly variant: string;
}

/** LSTM-only integer models (`4.0.0_best_int`) for recognition; OSD exists only as a legacy model. */
const PACKAGES: Readonly<Record<string, DataPackage>> = {
  eng: { name: '@tesseract.js-data/eng', variant: '4.0.0_best_int' },
  deu: { name: '@tesseract.js-data/deu', variant: '4.0.0_best_int' },
  fra: { name: '@tesseract.js-data/fra', variant: '4.0.0_best_int' },
  nld: { name: '@tesseract.js-data/nld', variant: '4.0.0_best_int' },
  spa: { name: '@tesseract.js-data/spa', variant: '4.0.0_best_int' },
  ita: { name: '@tesseract.js-data/ita', variant: '4.0.0_best_int' },
  osd: { name: '@tesseract.js-data/osd', variant: '4.0.0' },
};

/**
 * Recognition languages the pipeline can use (tesseract codes), in the default order: German first. A page is read
 * with one of them, chosen per page (page-ocr.ts), never with all at once.
 */
export const DEFAULT_OCR_LANGUAGES: readonly string[] = ['deu', 'eng', 'fra', 'nld', 'spa', 'ita'];

/** Tesseract code → ISO 639-1, as `analysis.language` holds it. */
export const ISO_LANGUAGE: Readonly<Record<string, string>> = {
  deu: 'de',
  eng: 'en',
  fra: 'fr',
  nld: 'nl',
  spa: 'es',
  ita: 'it',
};

/** ISO 639-1 → tesseract code; null for a language without a model. */
export function tesseractCode(iso: string): string | null {
  return Object.entries(ISO_LANGUAGE).find(([, code]) => code === iso)?.[0] ?? null;
}

const require = createRequire(import.meta.url);

function packageFile(code: string): string | null {
  const pkg = PACKAGES[code];
  if (!pkg) return null;
  try {
    return join(dirname(require.resolve(`${pkg.name}/package.json`)), pkg.variant, `${code}.traineddata.gz`);
  } catch {
    return null;
  }
}

const installed = new Map<string, boolean>();
/** Whether the data package of a language (or 'osd') is installed. */
export function hasLanguageData(code: string): boolean {
  let known = installed.get(code);
  if (known === undefined) {
    const file = packageFile(code);
    try {
      known = file !== null && statSync(file).isFile();
    } catch {
      known = false;
    }
    installed.set(code, known);
  }
  return known;
}

/** The default languages whose data is installed: what a space's OCR languages may be set to. */
export function installedOcrLanguages(): string[] {
  return DEFAULT_OCR_LANGUAGES.filter(hasLanguageData);
}

/**
 * The recognition languages for a request: the requested ones that have data (any order, duplicates dropped),
 * or the default set when none was asked for or none of the requested ones is available.
 */
export function resolveOcrLanguages(requested: readonly string[] | undefined): {
  languages: string[];
  unavailable: string[];
} {
  const wanted = [...new Set((requested ?? []).map((l) => l.trim().toLowerCase()).filter((l) => l && l !== 'osd'))];
  const languages = wanted.filter(hasLanguageData);
  const unavailable = wanted.filter((l) => !hasLanguageData(l));
  return { languages: languages.length > 0 ? languages : installedOcrLanguages(), unavailable };
}

/**
 * The local directory tesseract.js reads `<code>.traineddata.gz` from. Checked (and refilled if a temp-file
 * cleaner emptied it) each time an OCR engine starts, which is rare: engines are kept for the life of a thread.
 */
export async function tessdataDirectory(): Promise<string> {
  const dir = directoryName();
  await mkdir(dir, { recursive: true });
  for (const code of Object.keys(PACKAGES)) {
    const source = packageFile(code);
    if (source === null || !hasLanguageData(code)) continue;
    const target = join(dir, `${code}.traineddata.gz`);
    const [from, to] = await Promise.all([stat(source), stat(target).catch(() => null)]);
    if (to?.size === from.size) continue;
    // Another worker thread may be copying the same file: copy aside, then rename into place atomically.
    const partial = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    await copyFile(source, partial);
    await rename(partial, target);
  }
  assertLocalPath(dir);
  return dir;
}

/** One directory per machine and set of package versions, so an update never reads stale copies. */
function directoryName(): string {
  const versions = Object.values(PACKAGES).map((p) => {
    try {
      return (require(`${p.name}/package.json`) as { version: string }).version;
    } catch {
      return 'none';
    }
  });
  return join(tmpdir(), `archive-tessdata-${versions.join('-')}`);
}

/** Drops the gathered copies (after an engine failed to start on them): the next start copies them afresh. */
export async function forgetTessdata(): Promise<void> {
  await rm(directoryName(), { recursive: true, force: true });
}

/** tesseract.js fetches langPath over the network when it looks like a URL; ours never may. */
export function assertLocalPath(path: string): void {
  if (!isAbsolute(path) || /^[a-z][a-z0-9+.-]*:\/\//i.test(path) || path.startsWith('//')) {
    throw new Error(`OCR language data must come from a local directory, not ${path}`);
  }
}
