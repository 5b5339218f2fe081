import { describe, expect, it } from 'vitest';
import { destinationLine, folderLine } from '../../renderer/src/lib/onboarding.ts';
import { translate } from '../../common/i18n/translate.ts';

const say = (line: ReturnType<typeof folderLine>, locale: 'en' | 'de' = 'en') =>
  translate(locale, line.key, line.params);

describe('welcome guide, step 3', () => {
  it("says what the folder's after-upload action does with the originals", () => {
    expect(say(folderLine({ path: '/scans', after_upload: { action: 'keep' } }))).toBe(
      'New files in /scans are uploaded; the originals stay where they are.',
    );
    const moved = say(folderLine({ path: '/scans', after_upload: { action: 'move', to: '/done' } }));
    expect(moved).toBe('New files in /scans are uploaded, then moved to /done.');
    const deleted = say(folderLine({ path: '/scans', after_upload: { action: 'delete' } }));
    expect(deleted).toMatch(/then deleted from the folder/);
    for (const text of [moved, deleted]) expect(text).not.toMatch(/kept|stay/);
    expect(say(folderLine({ path: '/scans', after_upload: { action: 'move', to: '/done' } }), 'de')).toBe(
      'Neue Dateien in /scans werden hochgeladen und danach nach /done verschoben.',
    );
  });

  it("names the local archive's directory when known, the service URL when hosted", () => {
    expect(say(destinationLine('local', '', '/home/ann/.local/share/desktop-archive/archive'))).toBe(
      'Scans are read (OCR), filed and kept in the local archive on this computer, in /home/ann/.local/share/desktop-archive/archive.',
    );
    expect(say(destinationLine('local', '', null))).toBe(
      'Scans are read (OCR), filed and kept in the local archive on this computer.',
    );
    expect(say(destinationLine('hosted', 'https://archive.example.com', '/ignored'))).toBe(
      'Scans are uploaded to https://archive.example.com, read (OCR) and filed there.',
    );
  });
});
