// One mock for the whole run, shared by every worker: started here, its URLs handed to the workers through the
// environment. MOCK_SESSIONS=off starts it without sessions (mock-shared.toml) to show what sharing does.
import { fileURLToPath } from 'node:url';
import { startMock } from 'folder-mock';

export default async function globalSetup() {
  const root = fileURLToPath(new URL('.', import.meta.url));
  const config = process.env.MOCK_SESSIONS === 'off' ? 'mock-shared.toml' : 'mock.toml';
  const m = await startMock({ root, config, inspect: true });
  process.env.MOCK_URL = m.url;
  process.env.MOCK_API = new URL('/__mock/api', m.inspectUrl).href;
  return () => m.close();
}
