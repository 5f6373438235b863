/**
 * A world's capacity: `createAnimationWorld`'s size options, checked once and resolved (the
 * defaults applied) into one object — what the pools are sized by (worldPools.ts) and what
 * `worldBytes` counts (worldBytes.ts). Nothing downstream takes the sizes one by one.
 */
import type { AnimationIssue } from './assets/AnimationError.js';
import { FLOAT32_MAX, MAX_EVENTS, MAX_JOINTS, shownNumber, shownValue } from './assets/limits.js';
import { DEFAULT_MAX_CURVES, MAX_CURVES } from './components/Curves.js';
import { defaultMaxTransitions } from './components/Inertialization.js';
import { DEFAULT_MAX_LAYERS, MAX_LAYERS } from './components/Layers.js';
import { DEFAULT_MAX_MACHINES } from './components/StateMachine.js';
import { logicalCores, MAX_THREADS } from './memory/environment.js';
import type { AnimationWorldOptions } from './world.js';

/** The sizes of a world's pools, resolved from its options (see {@link resolveCapacity}). */
export interface Capacity {
  /** Largest entity id (`maxEntities`). */
  readonly maxEntities: number;
  /** Rows of the per-entity pools: `maxEntities + 1` (bitecs ids start at 1). */
  readonly rows: number;
  /** Joints per character. */
  readonly maxJoints: number;
  /** Records of the event ring buffer. */
  readonly maxEvents: number;
  /** Transition slots. */
  readonly maxTransitions: number;
  /** Layer slots per character. */
  readonly maxLayers: number;
  /** Float curves per character. */
  readonly maxCurves: number;
  /** State-machine slots per character. */
  readonly maxMachines: number;
  /** The blend threshold (`blendThreshold`). */
  readonly blendThreshold: number;
  /** How override layers blend rotations (`interpolation`). */
  readonly interpolation: 'nlerp' | 'slerp';
  /** Threads `stepParallel` runs on (`'auto'` resolved to the machine's logical cores). */
  readonly threads: number;
  /** Milliseconds a threaded world waits for its workers (`workerTimeout`). */
  readonly workerTimeout: number;
  /** Whether the world keeps every character's model matrices in `ModelPose` (`modelPose`, default true). */
  readonly modelPose: boolean;
}

/** `createAnimationWorld`'s default `workerTimeout`, milliseconds. */
export const DEFAULT_WORKER_TIMEOUT = 10_000;
/** The longest `workerTimeout`, milliseconds: the longest delay a timer takes (2³¹ − 1 ms, about 24.8 days). */
export const MAX_WORKER_TIMEOUT = 2 ** 31 - 1;

/** Every option `createAnimationWorld` takes (`AnimationWorldOptions`). */
const OPTION_KEYS: ReadonlySet<string> = new Set([
  'maxEntities', 'maxJoints', 'world', 'maxEvents', 'maxTransitions', 'maxLayers', 'maxCurves', 'maxMachines', 'blendThreshold', 'interpolation', 'frame', 'threads', 'kernels', 'workerTimeout', 'verifyThreads', 'transactionalFrames', 'modelPose',
]);

/**
 * Checks the size options of `options` and resolves them; each fault goes to `issues` (the
 * caller throws them all at once, with its own checks), and an unknown option is one. The
 * sizes of a faulty option are placeholders then. `minEntities` is 1 for a world, 0 for
 * `worldBytes` (whose 0 counts a world's fixed part).
 */
export function resolveCapacity(options: Readonly<AnimationWorldOptions>, issues: AnimationIssue[], minEntities = 1): Capacity {
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS.has(key)) issues.push({ path: key, message: `is not an option (options: ${[...OPTION_KEYS].join(', ')})` });
  }
  const { maxEntities, maxJoints } = options;
  const maxEvents = options.maxEvents ?? 4096;
  const entitiesValid = isInteger(maxEntities) && maxEntities >= minEntities;
  const maxTransitions = options.maxTransitions ?? (entitiesValid ? defaultMaxTransitions(maxEntities) : 0);
  const maxLayers = options.maxLayers ?? DEFAULT_MAX_LAYERS;
  const maxCurves = options.maxCurves ?? DEFAULT_MAX_CURVES;
  const layersValid = isInteger(maxLayers) && maxLayers >= 1 && maxLayers <= MAX_LAYERS;
  // Default 2, or one per layer when the world has fewer.
  const maxMachines = options.maxMachines ?? Math.min(DEFAULT_MAX_MACHINES, layersValid ? maxLayers : DEFAULT_MAX_MACHINES);
  const threads = options.threads === 'auto' ? logicalCores() : options.threads ?? 1;
  const blendThreshold = options.blendThreshold ?? 0.1;
  const integer = (path: string, v: unknown, min: number, max: number, why: string): void => {
    if (!isInteger(v) || v < min || v > max) {
      issues.push({ path, message: `is ${shownNumber(v)}: must be an integer ≥ ${min}${Number.isFinite(max) ? ` and ≤ ${max} (${why})` : ''}` });
    }
  };
  integer('maxEntities', maxEntities, minEntities, Infinity, '');
  integer('maxJoints', maxJoints, 1, MAX_JOINTS, 'joint parents are stored as Int16');
  integer('maxEvents', maxEvents, 1, MAX_EVENTS, 'MAX_EVENTS');
  integer('maxLayers', maxLayers, 1, MAX_LAYERS, 'MAX_LAYERS; default 4');
  if (!isInteger(maxCurves) || maxCurves < 0 || maxCurves > MAX_CURVES) {
    issues.push({ path: 'maxCurves', message: `is ${shownNumber(maxCurves)}: must be an integer ≥ 0 and ≤ ${MAX_CURVES} (MAX_CURVES; default ${DEFAULT_MAX_CURVES})` });
  }
  if (options.maxMachines !== undefined) integer('maxMachines', maxMachines, 1, layersValid ? maxLayers : MAX_LAYERS, 'maxLayers: a machine owns at least one layer; default 2');
  if (!isInteger(maxTransitions) || maxTransitions < 0 || (entitiesValid && maxTransitions > maxEntities)) {
    issues.push({ path: 'maxTransitions', message: `is ${shownNumber(maxTransitions)}: must be an integer ≥ 0 and ≤ maxEntities (${shownNumber(maxEntities)}; a character holds at most one transition slot)` });
  }
  if (typeof blendThreshold !== 'number' || !(blendThreshold > 0) || !(blendThreshold <= FLOAT32_MAX)) {
    issues.push({ path: 'blendThreshold', message: `is ${shownNumber(blendThreshold)}: must be a finite number > 0 and ≤ 3.4e38 (the Float32 range)` });
  }
  if (!isInteger(threads) || threads < 1 || threads > MAX_THREADS) {
    issues.push({ path: 'threads', message: `is ${shownNumber(options.threads)}: must be an integer ≥ 1 and ≤ ${MAX_THREADS}, or 'auto' (the machine's logical cores)` });
  }
  const interpolation = options.interpolation ?? 'nlerp';
  if (interpolation !== 'nlerp' && interpolation !== 'slerp') {
    issues.push({ path: 'interpolation', message: `is ${shownValue(interpolation)}: must be 'nlerp' (default) or 'slerp'` });
  }
  const workerTimeout = options.workerTimeout ?? DEFAULT_WORKER_TIMEOUT;
  if (typeof workerTimeout !== 'number' || !(workerTimeout >= 1) || !(workerTimeout <= MAX_WORKER_TIMEOUT)) {
    issues.push({ path: 'workerTimeout', message: `is ${shownNumber(workerTimeout)}: must be a number of milliseconds ≥ 1 and ≤ ${MAX_WORKER_TIMEOUT} (default ${DEFAULT_WORKER_TIMEOUT})` });
  }
  if (options.verifyThreads !== undefined && typeof options.verifyThreads !== 'boolean') {
    issues.push({ path: 'verifyThreads', message: `is ${shownNumber(options.verifyThreads)}: must be true or false (default false, or true when the environment variable BITANIM_VERIFY_THREADS is 1)` });
  }
  if (options.transactionalFrames !== undefined && typeof options.transactionalFrames !== 'boolean') {
    issues.push({ path: 'transactionalFrames', message: `is ${shownNumber(options.transactionalFrames)}: must be true or false (default false)` });
  }
  if (options.modelPose !== undefined && typeof options.modelPose !== 'boolean') {
    issues.push({ path: 'modelPose', message: `is ${shownNumber(options.modelPose)}: must be true (default: ModelPose holds every character's model matrices) or false (skinning composes them in a scratch row)` });
  }
  // rows: a placeholder for a Symbol or BigInt maxEntities (refused above), which `+` would throw on.
  return {
    maxEntities, rows: typeof maxEntities === 'number' ? maxEntities + 1 : 1, maxJoints, maxEvents, maxTransitions, maxLayers, maxCurves, maxMachines, blendThreshold,
    interpolation: interpolation === 'slerp' ? 'slerp' : 'nlerp',
    threads: isInteger(threads) ? threads : 1,
    workerTimeout: typeof workerTimeout === 'number' ? workerTimeout : DEFAULT_WORKER_TIMEOUT,
    modelPose: options.modelPose !== false,
  };
}

function isInteger(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v);
}
