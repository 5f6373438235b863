/** `step` allocates nothing per frame on the WebAssembly kernels (issue 18: their calls must not allocate either). */
import { describeStepAllocation } from '../fixtures/stepAllocation.js';

describeStepAllocation('wasm');
