/**
 * The tests with V8's inlining off (see ./noInlining.ts), for the allocation tests:
 * `npx vitest run -c test/support/vitest.noInlining.config.ts test/api/crossfadeAllocation.test.ts`.
 */
import { defineConfig, mergeConfig } from 'vitest/config';
import base from '../../vitest.config.js';

export default mergeConfig(base, defineConfig({ test: { setupFiles: ['test/support/noInlining.ts'] } }));
