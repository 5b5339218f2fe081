/**
 * Ctrl+C and SIGTERM on a real `npm start` browser shell (test/core/start-signal-child.ts), whose dependency re-sends
 * the signal it caught: one signal stops the app cleanly (exit 0, the journal, the library cache and the embedded
 * archive closed: SQLite removes a database's -wal file when its last connection closes). A second signal later
 * exits at once: test/server/process-guard.test.ts.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CHILD = join(import.meta.dirname, 'start-signal-child.ts');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'start-signals-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Started {
  exited: Promise<number | null>;
  lines: string[];
  kill(signal: NodeJS.Signals): void;
  dataDir: string;
}

async function startShell(name: string): Promise<Started> {
  const dataDir = join(dir, name, 'data');
  const child = spawn(process.execPath, [CHILD], {
    env: {
      ...process.env,
      DESKTOP_ARCHIVE_DATA_DIR: dataDir,
      XDG_CONFIG_HOME: join(dir, name, 'config'),
      RENDERER_DIR: join(dir, 'no-renderer'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      lines.splice(0, lines.length, ...output.split('\n'));
      if (output.includes('Desktop Archive is running at')) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => reject(new Error(`the shell exited (${code}) before it was running:\n${output}`)));
  });
  return { exited, lines, dataDir, kill: (signal) => void child.kill(signal) };
}

const walFiles = (dataDir: string): string[] =>
  ['journal.sqlite-wal', 'library.sqlite-wal', join('archive', 'archive.sqlite-wal')].filter((file) =>
    existsSync(join(dataDir, file)),
  );

describe('npm start (browser shell) and signals', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`one ${signal}, re-sent by a dependency's exit hook, stops cleanly`, async () => {
      const shell = await startShell(signal);
      expect(walFiles(shell.dataDir).length).toBeGreaterThan(0);
      shell.kill(signal);
      expect(await shell.exited).toBe(0);
      expect(shell.lines.join('\n')).not.toContain('again: exiting without waiting');
      expect(walFiles(shell.dataDir)).toEqual([]);
    }, 60_000);
  }
});
