// Runs key store steps in a process of its own, so the test can give it a private D-Bus session with a real
// gnome-keyring (or a dead D-Bus address). Usage: node keychain-child.ts '<steps JSON>'; prints one JSON line.
import { errorMessage } from '../../common/errors.ts';
import type { KeyStore } from '../../main/core/keychain/key-store.ts';
import { openKeyStore } from '../../main/core/keychain/open-key-store.ts';

export type ChildStep =
  | { op: 'open'; storage: 'keychain' | 'file'; filePath: string }
  | { op: 'set'; profile: string; key: string }
  | { op: 'get'; profile: string }
  | { op: 'delete'; profile: string };

export type ChildResult =
  | { op: 'open'; kind: string; warning: string | null }
  | { op: 'get'; value: string | null }
  | { op: 'set' | 'delete'; ok: true }
  | { op: ChildStep['op']; error: string };

export interface ChildOutput {
  results: ChildResult[];
  logs: string[];
}

const steps = JSON.parse(process.argv[2] ?? '[]') as ChildStep[];
const logs: string[] = [];
const results: ChildResult[] = [];
let store: KeyStore | undefined;

for (const step of steps) {
  try {
    switch (step.op) {
      case 'open': {
        const opened = await openKeyStore({
          storage: step.storage,
          filePath: step.filePath,
          log: (line) => logs.push(line),
          probeTimeoutMs: 10_000,
        });
        store = opened.store;
        results.push({ op: 'open', kind: store.kind, warning: opened.warning ?? null });
        break;
      }
      case 'get':
        results.push({ op: 'get', value: await opened().get(step.profile) });
        break;
      case 'set':
        await opened().set(step.profile, step.key);
        results.push({ op: 'set', ok: true });
        break;
      case 'delete':
        await opened().delete(step.profile);
        results.push({ op: 'delete', ok: true });
        break;
    }
  } catch (error) {
    results.push({ op: step.op, error: errorMessage(error) });
  }
}
process.stdout.write(`${JSON.stringify({ results, logs } satisfies ChildOutput)}\n`);

function opened(): KeyStore {
  if (!store) throw new Error('no open step before this one');
  return store;
}
