import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The oracle and allocation tests build thousands of three.js objects; give them room.
    testTimeout: 60_000,
  },
});
