import { defineConfig } from 'vitest/config';

// Tests run against a real database: in-memory PGlite by default, or a throwaway database on the
// PostgreSQL server named by TEST_DATABASE_URL (each test file creates and drops its own).
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: process.env.CI ? ['default'] : ['default'],
  },
});
