/**
 * The Chromium the end-to-end tests and the UI bench drive: the one CHROMIUM_PATH names, else a system Chromium or
 * Chrome, else the Chromium of the @sparticuz/chromium dev dependency (its binary ships inside the npm package, so a
 * machine with Node and nothing else has one after `npm install`). CHROMIUM_PATH=npm skips the system lookup.
 */
import { constants } from 'node:fs';
import { access, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withDirectoryLock } from './directory-lock.ts';

export interface BrowserCandidate {
  /** Where it comes from, for messages: CHROMIUM_PATH, a system path, the npm package. */
  source: string;
  /** The executable, or null when this candidate is not on this machine. */
  locate(): Promise<string | null>;
}

export interface FoundBrowser {
  executablePath: string;
  source: string;
}

export const BROWSER_SETTING = 'CHROMIUM_PATH';
export const NPM_CHROMIUM_SOURCE = '@sparticuz/chromium';
/** The value of CHROMIUM_PATH that asks for the npm package's Chromium even where the system has one. */
export const NPM_BROWSER = 'npm';

/** Where Linux distributions and macOS install Chromium and Chrome, most specific first. */
export const SYSTEM_BROWSERS: Partial<Record<NodeJS.Platform, string[]>> = {
  linux: [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome-stable',
    '/usr/bin/google-chrome',
    '/snap/bin/chromium',
  ],
  darwin: [
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
  ],
};

/** The first candidate that is on this machine; an error naming every place looked at when none is. */
export async function findBrowser(candidates: readonly BrowserCandidate[]): Promise<FoundBrowser> {
  for (const candidate of candidates) {
    const executablePath = await candidate.locate();
    if (executablePath) return { executablePath, source: candidate.source };
  }
  throw new Error(
    `No Chromium found (looked at: ${candidates.map((c) => c.source).join(', ') || 'nothing'}). ` +
      `Run npm install (it brings @sparticuz/chromium on Linux x64), install Chromium or Chrome, or set ${BROWSER_SETTING} to a browser's executable.`,
  );
}

/** The lookup order: the explicit setting, the system's browsers, the npm package's Chromium. */
export function browserCandidates(
  options: {
    env?: NodeJS.ProcessEnv;
    systemPaths?: readonly string[];
    npm?: BrowserCandidate;
  } = {},
): BrowserCandidate[] {
  const setting = options.env === undefined ? process.env[BROWSER_SETTING] : options.env[BROWSER_SETTING];
  const npm = options.npm ?? npmChromium();
  if (setting === NPM_BROWSER) return [npm];
  const system = (options.systemPaths ?? SYSTEM_BROWSERS[process.platform] ?? []).map(systemBrowser);
  return setting ? [explicitBrowser(setting), ...system, npm] : [...system, npm];
}

/** The setting is the user's choice: a path that is not a browser is an error, never a silent fallback. */
function explicitBrowser(path: string): BrowserCandidate {
  return {
    source: `${BROWSER_SETTING}=${path}`,
    async locate() {
      if (await isExecutableFile(path)) return path;
      throw new Error(
        `${BROWSER_SETTING} is "${path}", which is not an executable file. Set it to a Chromium or Chrome executable, ` +
          `or to "${NPM_BROWSER}" for the Chromium of the @sparticuz/chromium package, or unset it to look for one.`,
      );
    },
  };
}

function systemBrowser(path: string): BrowserCandidate {
  return { source: path, locate: async () => ((await isExecutableFile(path)) ? path : null) };
}

async function isExecutableFile(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/**
 * @sparticuz/chromium (Linux x64 only): executablePath() inflates its brotli-compressed binary to `<tmp>/chromium`
 * and returns any file already there as it is, a half-written one included. So the extraction runs under a lock
 * across test forks and is marked complete (with the package's version) only once it finished; a binary without
 * that mark is removed and extracted again.
 */
export function npmChromium(): BrowserCandidate {
  return {
    source: NPM_CHROMIUM_SOURCE,
    async locate() {
      if (process.platform !== 'linux' || process.arch !== 'x64') return null;
      let entry: string;
      try {
        entry = fileURLToPath(import.meta.resolve('@sparticuz/chromium'));
      } catch {
        return null; // not installed (npm install --omit=dev)
      }
      const version = (
        JSON.parse(await readFile(join(dirname(entry), '..', '..', 'package.json'), 'utf8')) as { version: string }
      ).version;
      const marker = join(tmpdir(), 'chromium.extracted');
      const extracted = async (): Promise<string | null> => {
        const mark = await readFile(marker, 'utf8').catch(() => null);
        return mark === version && (await isExecutableFile(join(tmpdir(), 'chromium')))
          ? join(tmpdir(), 'chromium')
          : null;
      };
      const ready = await extracted();
      if (ready) return ready;
      return withDirectoryLock(
        join(tmpdir(), 'chromium.extract.lock'),
        { staleMs: 120_000, waitMs: 150_000, what: 'extracting Chromium' },
        async () => {
          const done = await extracted();
          if (done) return done;
          await rm(marker, { force: true });
          // What executablePath() would take as done: the binary, the fonts, and the SwiftShader library it checks for.
          await Promise.all([
            rm(join(tmpdir(), 'chromium'), { force: true }),
            rm(join(tmpdir(), 'fonts'), { recursive: true, force: true }),
            rm(join(tmpdir(), 'libGLESv2.so'), { force: true }),
          ]);
          const { default: chromium } = await import('@sparticuz/chromium');
          const path = await chromium.executablePath();
          await writeFile(marker, version);
          return path;
        },
      );
    },
  };
}
