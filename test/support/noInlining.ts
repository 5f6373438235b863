/**
 * Setup file of test/support/vitest.noInlining.config.ts: V8 inlines no function (compiled
 * after this line). A double passed to, or returned from, a call that is not inlined is boxed,
 * so an allocation test that passes here passes whatever V8's inliner decides on a busy machine.
 */
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--max-inlined-bytecode-size=0');
