import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Examples import the package by name, as a game would; in tests that name is the source.
  resolve: {
    alias: [
      { find: /^bitanim$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
      { find: /^bitanim\/kernels$/, replacement: fileURLToPath(new URL('./src/kernels.ts', import.meta.url)) },
      { find: /^bitanim\/lod$/, replacement: fileURLToPath(new URL('./src/lod.ts', import.meta.url)) },
      { find: /^bitanim\/pixi$/, replacement: fileURLToPath(new URL('./src/pixi/index.ts', import.meta.url)) },
    ],
  },
  test: {
    // `npm test` runs everything but test/long/ (the exhaustive sweeps over every real clip);
    // `npm run test:long` runs those (CI runs both).
    include: process.env['BITANIM_TEST_LONG'] === '1' ? ['test/long/**/*.test.ts'] : ['test/**/*.test.ts', 'examples/**/*.test.ts'],
    exclude: process.env['BITANIM_TEST_LONG'] === '1' ? ['**/node_modules/**'] : ['**/node_modules/**', 'test/long/**'],
    // Worker threads run JavaScript: src/parallel/worker.ts is bundled once per run; the
    // WebAssembly kernels (assembly/) are compiled once per run.
    globalSetup: ['test/support/workerBundle.ts', 'test/support/wasmBuild.ts'],
    // The oracle and allocation tests build thousands of characters; give them room.
    testTimeout: 60_000,
    // A passing run prints the summary only: the figures tests measure (console output) and the
    // list of files show for failing tests, or for every test with BITANIM_TEST_LOG=1.
    reporters: process.env['BITANIM_TEST_LOG'] === '1' ? ['default'] : ['minimal'],
  },
});
