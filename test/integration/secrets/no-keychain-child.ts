// Run by keytar-vault.test.ts in a child process without a D-Bus session: the "no keychain" case.
import { toAppError } from '../../../src-main/core/app-error';
import { dataHome } from '../../../src-main/core/data-home';
import { KeytarVault } from '../../../src-main/core/secrets/keytar-vault';
import { secretHandlers } from '../../../src-main/core/secrets/secret-handlers';

const handlers = secretHandlers(new KeytarVault(process.env.SWITCHBOARD_TEST_SERVICE));
const results: unknown[] = [];
for (const call of [
  () => handlers.setSecret({ name: 'API_KEY', value: process.env.SWITCHBOARD_TEST_VALUE ?? '' }),
  () => handlers.listSecrets({}),
]) {
  try {
    results.push({ ok: true, value: await call() });
  } catch (error) {
    results.push({ ok: false, error: toAppError(error) });
  }
}
process.stdout.write(JSON.stringify({ home: dataHome(), results }));
