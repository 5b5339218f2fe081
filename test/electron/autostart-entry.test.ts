import { describe, expect, it } from 'vitest';
import { autostartEntry, execArgument, HIDDEN_FLAG } from '../../main/electron/autostart-entry.ts';

/**
 * Reads an Exec value back the way the Desktop Entry Specification says (and GLib does): string escapes first
 * (an unknown one is an error, as in g_key_file), then the command line split into arguments, double quotes with
 * backslash escapes of " ` $ \, then %% as a literal %.
 */
function readExec(value: string): string[] {
  let unescaped = '';
  for (let i = 0; i < value.length; i++) {
    if (value[i] !== '\\') {
      unescaped += value[i];
      continue;
    }
    const next = value[++i];
    const map: Record<string, string> = { '\\': '\\', n: '\n', t: '\t', r: '\r', s: ' ' };
    if (next === undefined || !(next in map)) throw new Error(`invalid escape sequence \\${next ?? ''}`);
    unescaped += map[next];
  }
  const args: string[] = [];
  let current: string | null = null;
  for (let i = 0; i < unescaped.length; i++) {
    const c = unescaped[i]!;
    if (c === '"') {
      current ??= '';
      for (i++; unescaped[i] !== '"'; i++) {
        if (i >= unescaped.length) throw new Error('unterminated quote');
        if (unescaped[i] === '\\' && '"`$\\'.includes(unescaped[i + 1] ?? '')) i++;
        else if ('"`$\\'.includes(unescaped[i]!)) throw new Error(`unescaped ${unescaped[i]} inside quotes`);
        current += unescaped[i];
      }
    } else if (c === ' ') {
      if (current !== null) args.push(current);
      current = null;
    } else {
      current = (current ?? '') + c;
    }
  }
  if (current !== null) args.push(current);
  return args.map((arg) =>
    arg.replace(/%(.)/g, (whole, code: string) => {
      if (code === '%') return '%';
      throw new Error(`field code ${whole} in a literal argument`);
    }),
  );
}

const execOf = (entry: string): string =>
  entry
    .split('\n')
    .find((line) => line.startsWith('Exec='))!
    .slice('Exec='.length);

describe('the XDG autostart entry (start at login on Linux)', () => {
  it('is a desktop entry that starts the executable hidden', () => {
    const entry = autostartEntry('/opt/Desktop Archive/desktop-archive');
    expect(entry.split('\n')).toEqual([
      '[Desktop Entry]',
      'Type=Application',
      'Name=Desktop Archive',
      'Exec="/opt/Desktop Archive/desktop-archive" --hidden',
      'X-GNOME-Autostart-enabled=true',
      'Terminal=false',
      '',
    ]);
    expect(readExec(execOf(entry))).toEqual(['/opt/Desktop Archive/desktop-archive', HIDDEN_FLAG]);
  });

  it('escapes shell characters twice over (string escapes on top of quoting), as the specification reads them', () => {
    expect(execArgument('/home/a$HOME/app')).toBe('"/home/a\\\\$HOME/app"');
    expect(execArgument('C:\\odd\\path')).toBe('"C:\\\\\\\\odd\\\\\\\\path"');
    expect(execArgument('100% `id`')).toBe('"100%% \\\\`id\\\\`"');
  });

  it('round-trips any path, however hostile, to exactly one argument', () => {
    const paths = [
      '/usr/bin/desktop-archive',
      "/home/o'brien/Apps/Archive.AppImage",
      '/tmp/"quoted" name',
      '/tmp/$(rm -rf ~)',
      '/tmp/`reboot`',
      '/tmp/back\\slash',
      '/tmp/trailing\\',
      '/tmp/100%done %f %u',
      '/tmp/semi;colon&amp|pipe>out<in',
      '/tmp/new\nline\tand tab',
      '/tmp/ümlaut ✓ 文件',
      '/tmp/$HOME ${HOME} \\$x \\\\"',
    ];
    for (const path of paths) {
      const exec = execOf(autostartEntry(path));
      expect(exec, path).not.toMatch(/\n/);
      expect(readExec(exec), path).toEqual([path, HIDDEN_FLAG]);
    }
  });
});
