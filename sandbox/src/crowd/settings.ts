/**
 * The crowd view's settings (read from the page's URL, changed by the controls) and the
 * tuning constants its parts share.
 */
import type { KernelChoice, TransitionMode } from 'bitanim';
import type { CharacterKind } from '../assets';
import type { TimingMode } from './pipeline';

export type Workload = 'locomotion' | 'bench';
export type MachineTransitionMode = Exclude<TransitionMode, 'crossfade'>;
export type BodyChoice = 'auto' | 'mesh' | 'capsules' | 'coarse';

/** Largest crowd the controls allow. */
export const MAX_CROWD = 16_000;
/**
 * 'auto' bodies: the mesh up to this many characters, capsules on every bone up to the next
 * limit, coarse capsules above. Software GL (SwiftShader) pays about half a microsecond per
 * triangle however small, so triangles per frame, not vertices, set the frame rate there.
 */
export const AUTO_MESH_LIMIT = 600;
export const AUTO_CAPSULE_LIMIT = 1_500;
/** Motion LOD: the tolerance of each level's reduced clips (`bakeLod`), metres, finest first. */
export const LOD_TOLERANCES = [0.001, 0.005, 0.02, 0.05];
/** Level l is animated every `LOD_UPDATE_EVERY[l]`-th frame (update-rate LOD). */
export const LOD_UPDATE_EVERY = [1, 2, 3, 4];
/** Level boundaries, as multiples of the view's half height (metres from the view's centre). */
export const LOD_RINGS = [0.5, 1, 1.6];
/** Colour per LOD level: green 0, yellow 1, orange 2, red 3. */
export const LOD_COLORS = [[0.35, 0.85, 0.45], [0.95, 0.85, 0.3], [0.98, 0.55, 0.2], [0.9, 0.25, 0.25]] as const;
/** Look-at limits, radians: left/right of the character's forward, up/down. */
export const LOOK_YAW_LIMIT = 1.3;
export const LOOK_PITCH_LIMIT = 0.6;
/** The overlay's look-at check: characters sampled, and the error below which a head counts as on target. */
export const AIM_SAMPLE = 256;
export const AIM_TOLERANCE_DEG = 3;

export interface CrowdSettings {
  count: number;
  character: CharacterKind;
  body: BodyChoice;
  workload: Workload;
  /** The locomotion machine's idle ↔ move transitions (a machine cannot cross-fade into or out of a blend-space state). */
  transitions: MachineTransitionMode;
  timing: TimingMode;
  lod: boolean;
  followers: boolean;
  lookAt: boolean;
  /** Foot locking on every wanderer (`setFootLock`, the legs of `feetOf`; `?footlock=1`). */
  footLock: boolean;
  /** Threads of the crowd's world (`createAnimationWorld({ threads })`): 1 runs `step`, more `stepParallel`. */
  threads: number;
  /** Kernels of the crowd's world (`createAnimationWorld({ kernels })`, `?kernels=`): 'auto' (default) runs WebAssembly where `loadKernels()` loaded it. */
  kernels: KernelChoice;
  paused: boolean;
}

/** The settings the page's URL asks for (`?count=…&character=…&lod=1…`), defaults elsewhere. */
export function readSettings(params: URLSearchParams): CrowdSettings {
  return {
    // 500 Foxes by default: the textured mesh (below AUTO_MESH_LIMIT), as the README's picture.
    count: clampCount(Number(params.get('count') ?? 500)),
    character: (params.get('character') as CharacterKind | null) ?? 'fox',
    body: (params.get('body') as BodyChoice | null) ?? 'auto',
    workload: (params.get('workload') as Workload | null) ?? 'locomotion',
    transitions: params.get('transitions') === 'spring' ? 'spring' : 'inertialize',
    timing: (params.get('timing') as TimingMode | null) ?? 'chunked',
    lod: params.get('lod') === '1',
    followers: params.get('followers') !== '0',
    lookAt: params.get('lookat') !== '0',
    footLock: params.get('footlock') === '1',
    threads: clampThreads(Number(params.get('threads') ?? 1)),
    kernels: readKernels(params.get('kernels')),
    paused: false,
  };
}

/** `?kernels=` as a kernel choice: 'wasm' or 'js', else 'auto'. */
function readKernels(value: string | null): KernelChoice {
  return value === 'wasm' || value === 'js' ? value : 'auto';
}

/** `n` as a crowd size: an integer in [0, MAX_CROWD]. */
export function clampCount(n: number): number {
  return Math.max(0, Math.min(MAX_CROWD, Math.round(Number.isFinite(n) ? n : 0)));
}

/** Most threads the control offers: the machine's logical cores (`navigator.hardwareConcurrency`). */
export function maxThreads(): number {
  const cores = navigator.hardwareConcurrency;
  return Number.isInteger(cores) && cores >= 1 ? cores : 1;
}

/** `n` as a thread count: an integer in [1, maxThreads()]. */
export function clampThreads(n: number): number {
  return Math.max(1, Math.min(maxThreads(), Math.round(Number.isFinite(n) ? n : 1)));
}
