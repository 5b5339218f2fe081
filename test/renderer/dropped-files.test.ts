import { describe, expect, it } from 'vitest';
import { splitDrop } from '../../renderer/src/lib/dropped-files.ts';

const entry = (name: string, isDirectory: boolean) => ({ webkitGetAsEntry: () => ({ name, isDirectory }) });

describe('a drop on a browser window', () => {
  it('keeps the files and names the folders, which a page cannot read', () => {
    const files = [{ name: 'scan.pdf' }, { name: 'Scans' }, { name: 'foto.jpg' }];
    expect(splitDrop(files, [entry('scan.pdf', false), entry('Scans', true), entry('foto.jpg', false)])).toEqual({
      files: [{ name: 'scan.pdf' }, { name: 'foto.jpg' }],
      folders: ['Scans'],
    });
  });

  it('keeps everything where the browser cannot tell folders (no entries)', () => {
    expect(splitDrop([{ name: 'a.pdf' }], [{}, { webkitGetAsEntry: () => null }])).toEqual({
      files: [{ name: 'a.pdf' }],
      folders: [],
    });
  });
});
