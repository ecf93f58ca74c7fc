// Four workers, every test in parallel, against one mock (global-setup.js). Debian's chromium, no download.
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'tests',
  globalSetup: './global-setup.js',
  fullyParallel: true,
  workers: 4,
  retries: 0,
  reporter: 'list',
  // traces and failure pages go to the temp folder, never into the repository
  outputDir: path.join(os.tmpdir(), 'mock-playwright-results'),
  // generous: CI machines are shared, and four browsers start at once
  timeout: 60_000,
  expect: { timeout: 15_000 },
  use: {
    baseURL: process.env.MOCK_URL,
    launchOptions: {
      executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    },
  },
});
