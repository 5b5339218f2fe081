import { describe, expect, it } from 'vitest';
import { fileProblem } from '../../common/file-problems.ts';
import { folderPathProblem, refusedField } from '../../renderer/src/lib/folder-form.ts';

describe("the watched-folder form's messages", () => {
  it('names the field that is wrong: a relative Move to is the move target, not the folder', () => {
    expect(folderPathProblem('/home/juno/Scans', 'move', 'Filed/Done')).toEqual({
      field: 'moveTo',
      message: { key: 'common.fullPath' },
    });
    expect(folderPathProblem('/home/juno/Scans', 'move', '  ')).toMatchObject({ field: 'moveTo' });
    expect(folderPathProblem('Scans', 'move', 'Filed')).toEqual({ field: 'path', message: { key: 'common.fullPath' } });
    expect(folderPathProblem(' ', 'keep', '')).toEqual({ field: 'path', message: { key: 'uploads.pathsRequired' } });
  });

  it('lets absolute paths through, and ignores Move to unless files are moved', () => {
    expect(folderPathProblem('/home/juno/Scans', 'move', '/home/juno/Filed')).toBeNull();
    expect(folderPathProblem('C:\\Users\\juno\\Scans', 'keep', 'Filed')).toBeNull();
    expect(folderPathProblem('/home/juno/Scans', 'delete', '')).toBeNull();
  });

  it("puts the service's refusal under the field it is about", () => {
    expect(refusedField(fileProblem('moveTargetIsFolder'))).toBe('moveTo');
    expect(refusedField(fileProblem('folderNotFound', { path: '/home/juno/Gone' }))).toBe('path');
    expect(refusedField('something else went wrong')).toBe('path');
  });
});
