/**
 * Converts minimal flat-ODF sources into fixture files with LibreOffice (`soffice --convert-to`), for the scripts that
 * regenerate test fixtures. A throwaway profile turns off preview thumbnails to keep files small; outputs over
 * `maxBytes` (the legacy .ppt embeds a large thumbnail anyway) are stored gzipped, and the tests gunzip them.
 *
 *   apt-get install -y libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-impress-nogui
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

/** [source file name, --convert-to argument, output file name LibreOffice writes]. */
export type Conversion = readonly [source: string, target: string, output: string];

const PROFILE_SETTINGS = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema">
<item oor:path="/org.openoffice.Office.Common/Save/Document"><prop oor:name="GenerateThumbnail" oor:op="fuse"><value>false</value></prop></item>
</oor:items>
`;

export function convertFixtures(options: {
  sources: Record<string, string>;
  conversions: readonly Conversion[];
  outDir: string;
  maxBytes: number;
}): void {
  const work = mkdtempSync(join(tmpdir(), 'libreoffice-fixtures-'));
  try {
    const profile = join(work, 'profile');
    mkdirSync(join(profile, 'user'), { recursive: true });
    writeFileSync(join(profile, 'user', 'registrymodifications.xcu'), PROFILE_SETTINGS);
    for (const [name, text] of Object.entries(options.sources)) writeFileSync(join(work, name), text);
    const converted = join(work, 'out');
    mkdirSync(options.outDir, { recursive: true });
    for (const [source, target, output] of options.conversions) {
      execFileSync(
        'soffice',
        [
          `-env:UserInstallation=${pathToFileURL(profile).href}`,
          '--headless',
          '--norestore',
          '--convert-to',
          target,
          '--outdir',
          converted,
          join(work, source),
        ],
        { stdio: ['ignore', 'ignore', 'inherit'] },
      );
      const bytes = readFileSync(join(converted, output));
      const [fileName, stored] =
        bytes.length > options.maxBytes ? [`${output}.gz`, gzipSync(bytes, { level: 9 })] : [output, bytes];
      if (stored.length > options.maxBytes) throw new Error(`${fileName} is ${stored.length} bytes, too big`);
      rmSync(join(options.outDir, output), { force: true });
      rmSync(join(options.outDir, `${output}.gz`), { force: true });
      writeFileSync(join(options.outDir, fileName), stored);
      console.log(`${fileName}: ${stored.length} bytes`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
