import { mkdtempSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAgentArgs } from '../../main/core/agent/agent-args.ts';

describe('parseAgentArgs: paths', () => {
  it('reads a leading ~ as the home folder where the shell leaves it (after move:, after =)', () => {
    const args = parseAgentArgs(['--folder=~/Scans', '--after', 'move:~/Scans/done', '--data-dir=~/agent-data']);
    expect(args.folders?.[0]).toMatchObject({
      path: join(homedir(), 'Scans'),
      after_upload: { action: 'move', to: join(homedir(), 'Scans', 'done') },
    });
    expect(args.dataDir).toBe(join(homedir(), 'agent-data'));
  });

  it('resolves other paths against the working directory, and a ~ inside a name is a name', () => {
    const args = parseAgentArgs(['--folder', 'in', '--after', 'move:a~b']);
    expect(args.folders?.[0]).toMatchObject({
      path: resolve('in'),
      after_upload: { action: 'move', to: resolve('a~b') },
    });
  });

  it('refuses a move target that is a file, before any upload could look fine while every move fails', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'agent-args-')), 'not-a-folder');
    writeFileSync(file, 'x');
    expect(() => parseAgentArgs(['--folder', 'in', '--after', `move:${file}`])).toThrow(
      `--after move:${file}: ${file} is a file, not a folder`,
    );
  });
});
