import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUpWhenGone } from '../helpers/orphan-cleanup.ts';
import { findPostgresBinaries } from '../helpers/postgres.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const children: ChildProcess[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** A process that lives until it is killed (bounded: it ends by itself after a minute). */
function owner(): ChildProcess {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
  children.push(child);
  return child;
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;) {
    if (condition()) return true;
    await new Promise((done) => setTimeout(done, 100));
  }
  return condition();
}

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'orphan-cleanup-'));
  dirs.push(dir);
  return dir;
}

describe('cleanUpWhenGone', () => {
  it('runs the commands once the owner is killed, not before', async () => {
    const dir = await tempDir();
    const marker = join(dir, 'cleaned');
    const ownerProcess = owner();
    cleanUpWhenGone(ownerProcess.pid ?? -1, [['touch', marker]]);
    await new Promise((done) => setTimeout(done, 1_500));
    expect(existsSync(marker)).toBe(false);
    ownerProcess.kill('SIGKILL');
    expect(await waitFor(() => existsSync(marker), 5_000)).toBe(true);
  });

  it('does nothing once cancelled (the owner cleaned up itself)', async () => {
    const dir = await tempDir();
    const marker = join(dir, 'cleaned');
    const ownerProcess = owner();
    cleanUpWhenGone(ownerProcess.pid ?? -1, [['touch', marker]]).cancel();
    ownerProcess.kill('SIGKILL');
    expect(await waitFor(() => existsSync(marker), 2_500)).toBe(false);
  });

  it('passes arguments with quotes and spaces through unchanged', async () => {
    const dir = await tempDir();
    const marker = join(dir, `it's a "file" $HOME`);
    const ownerProcess = owner();
    cleanUpWhenGone(ownerProcess.pid ?? -1, [['touch', marker]]);
    ownerProcess.kill('SIGKILL');
    expect(await waitFor(() => existsSync(marker), 5_000)).toBe(true);
  });
});

const postgres = findPostgresBinaries();

describe.skipIf('missing' in postgres)('a test run killed with SIGKILL', () => {
  it('does not leave its PostgreSQL cluster running', async () => {
    const script = [
      `import { findPostgresBinaries, startPostgresCluster } from ${JSON.stringify(join(ROOT, 'test/helpers/postgres.ts'))};`,
      'const found = findPostgresBinaries();',
      "if ('missing' in found) throw new Error(found.missing);",
      'const cluster = await startPostgresCluster(found.binDir);',
      'console.log(cluster.url);',
      'setTimeout(() => {}, 60_000);',
    ].join('\n');
    const run = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(run);
    const url = await new Promise<string>((done, fail) => {
      let out = '';
      run.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const line = /postgres:\/\/\S+/.exec(out);
        if (line) done(line[0]);
      });
      run.once('exit', (code) => fail(new Error(`the run ended early (${code})`)));
    });
    const port = Number(new URL(url).port);
    const listening = (): boolean => portOpen(port);
    expect(listening()).toBe(true);
    run.kill('SIGKILL');
    expect(await waitFor(() => !listening(), 15_000)).toBe(true);
  }, 40_000);
});

/** Whether something listens on 127.0.0.1:port, read from /proc (no connection attempt that could itself linger). */
function portOpen(port: number): boolean {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const table = readFileSync('/proc/net/tcp', 'utf8');
  // Column 2 is local_address (0100007F:PORT for 127.0.0.1), column 4 the state (0A = LISTEN).
  return table.split('\n').some((line) => {
    const fields = line.trim().split(/\s+/);
    return fields[1] === `0100007F:${hex}` && fields[3] === '0A';
  });
}
