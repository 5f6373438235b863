/** `step` allocates nothing per frame, on the JavaScript kernels (the WebAssembly kernels: test/wasm/allocation.test.ts). */
import { describeStepAllocation } from './fixtures/stepAllocation.js';

describeStepAllocation('js');
