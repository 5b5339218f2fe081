/**
 * `npm start`: until the desktop shell lands, this starts the local Archive Service on the per-user data directory.
 * On first run it creates a key with every scope and prints it once.
 */
import { SCOPES } from '../common/archive-types.ts';
import { startArchiveService } from '../server/archive-service.ts';
import { countActiveKeys, createApiKey } from '../server/auth/api-keys.ts';
import { DEFAULT_HOST, DEFAULT_PORT, defaultDataDir } from '../server/config.ts';

const dataDir = defaultDataDir();
const port = Number(process.env.ARCHIVE_PORT ?? DEFAULT_PORT);
const service = await startArchiveService({ dataDir, host: DEFAULT_HOST, port, log: (line) => console.log(`${new Date().toISOString()} ${line}`) });

console.log(`\nDocument Archive Service (local) is running at ${service.url}/v1`);
console.log(`Data directory: ${dataDir}`);
console.log(`API reference:  ${service.url}/v1/openapi.json (and docs/api.md)`);
if (countActiveKeys(service.db) === 0) {
  const { key } = createApiKey(service.db, { name: 'first-run', role: 'editor', scopes: [...SCOPES], spaces: null });
  console.log('\nYour first API key (all scopes, every space). It is shown only this once; store it now:\n');
  console.log(`  ${key}\n`);
} else {
  console.log('\nAPI keys already exist. To get a new one:');
  console.log(`  npm run archive -- --data-dir "${dataDir}" keys create --name my-laptop\n`);
}
console.log('Try:  curl -H "Authorization: Bearer <key>" ' + `${service.url}/v1/documents`);
console.log('Stop with Ctrl+C.\n');

const stop = (): void => void service.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
