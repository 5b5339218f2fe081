/**
 * Which Chromium the e2e tests drive: the order of the lookup (setting, system, npm package) with candidates made
 * here, and the npm package's Chromium for real: extracted whole under a private temporary directory, and launched
 * with the harness's flags.
 */
import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserCandidates, findBrowser, npmChromium, type BrowserCandidate } from '../helpers/find-browser.ts';
import { launchChromium } from './e2e-harness.ts';

let dir: string;
let chromiumLike: string;
let notExecutable: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'find-browser-'));
  chromiumLike = join(dir, 'chromium');
  await writeFile(chromiumLike, '#!/bin/sh\n');
  await chmod(chromiumLike, 0o755);
  notExecutable = join(dir, 'plain-file');
  await writeFile(notExecutable, 'not a browser');
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A stand-in for the npm package's Chromium that records whether it was asked. */
function fakeNpm(path: string | null): BrowserCandidate & { asked: number } {
  const candidate = {
    source: '@sparticuz/chromium',
    asked: 0,
    locate: async () => {
      candidate.asked += 1;
      return path;
    },
  };
  return candidate;
}

describe('the browser lookup order', () => {
  it('takes a system Chromium before the npm one, and does not extract the npm one then', async () => {
    const npm = fakeNpm('/npm/chromium');
    const found = await findBrowser(
      browserCandidates({ env: {}, systemPaths: [join(dir, 'absent'), chromiumLike], npm }),
    );
    expect(found).toEqual({ executablePath: chromiumLike, source: chromiumLike });
    expect(npm.asked).toBe(0);
  });

  it('falls back to the npm Chromium when the system has none', async () => {
    const npm = fakeNpm('/npm/chromium');
    const found = await findBrowser(
      browserCandidates({ env: {}, systemPaths: [join(dir, 'absent'), notExecutable], npm }),
    );
    expect(found).toEqual({ executablePath: '/npm/chromium', source: '@sparticuz/chromium' });
  });

  it('takes CHROMIUM_PATH before everything else', async () => {
    const explicit = join(dir, 'explicit-chrome');
    await writeFile(explicit, '#!/bin/sh\n');
    await chmod(explicit, 0o755);
    const found = await findBrowser(
      browserCandidates({
        env: { CHROMIUM_PATH: explicit },
        systemPaths: [chromiumLike],
        npm: fakeNpm('/npm/chromium'),
      }),
    );
    expect(found).toEqual({ executablePath: explicit, source: `CHROMIUM_PATH=${explicit}` });
  });

  it('CHROMIUM_PATH=npm skips the system lookup', async () => {
    const found = await findBrowser(
      browserCandidates({ env: { CHROMIUM_PATH: 'npm' }, systemPaths: [chromiumLike], npm: fakeNpm('/npm/chromium') }),
    );
    expect(found.source).toBe('@sparticuz/chromium');
  });

  it('refuses a CHROMIUM_PATH that is not an executable instead of quietly taking another browser', async () => {
    for (const path of [join(dir, 'absent'), notExecutable, dir]) {
      const npm = fakeNpm('/npm/chromium');
      await expect(
        findBrowser(browserCandidates({ env: { CHROMIUM_PATH: path }, systemPaths: [chromiumLike], npm })),
      ).rejects.toThrow(`CHROMIUM_PATH is "${path}", which is not an executable file`);
      expect(npm.asked).toBe(0);
    }
  });

  it('names every place it looked at when there is no browser', async () => {
    const absent = join(dir, 'absent');
    await expect(
      findBrowser(browserCandidates({ env: {}, systemPaths: [absent], npm: fakeNpm(null) })),
    ).rejects.toThrow(`No Chromium found (looked at: ${absent}, @sparticuz/chromium)`);
  });
});

describe.runIf(process.platform === 'linux' && process.arch === 'x64')("the npm package's Chromium", () => {
  let privateTmp: string;
  const savedTmp = process.env.TMPDIR;

  // The package extracts into os.tmpdir(): a private one keeps this test from touching the binary other forks use.
  beforeAll(async () => {
    privateTmp = join(dir, 'tmp');
    await mkdir(privateTmp);
    process.env.TMPDIR = privateTmp;
  });

  afterAll(() => {
    if (savedTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmp;
  });

  it('replaces the half-written binary of a killed extraction, extracts once for concurrent callers, and launches', async () => {
    // What a run killed during the extraction leaves: the start of the binary, which the package alone would return.
    await writeFile(join(privateTmp, 'chromium'), Buffer.alloc(4096, 0x7f));
    await chmod(join(privateTmp, 'chromium'), 0o700);
    const [first, second] = await Promise.all([npmChromium().locate(), npmChromium().locate()]);
    expect(first).toBe(join(privateTmp, 'chromium'));
    expect(second).toBe(first);
    expect((await stat(first!)).size).toBeGreaterThan(50_000_000);

    const browser = await launchChromium({ executablePath: first!, source: '@sparticuz/chromium' });
    try {
      const page = await browser.newPage();
      await page.setContent('<p>launched</p>');
      expect(await page.textContent('p')).toBe('launched');
      expect(browser.version()).toMatch(/^\d+\./);
    } finally {
      await browser.close();
    }
  }, 120_000);
});
