/**
 * Feature checks for the parts of bitanim that are still being built: motion LOD (bakeLod,
 * registerLodLevels, setLod, setLodCamera, getLod, lodEntities) and look-at (setLookAt).
 *
 * The sandbox looks the names up on the package's public entry at run time, so it builds and
 * runs against a bitanim without them and switches them on by itself once `src/index.ts`
 * exports them. The signatures below are those of DESIGN §5 and of the LOD work in progress;
 * if they change, this file is the one place to adapt.
 *
 * TODO(lod, look-at): once these are exported, drop the `optional()` look-ups for plain
 * imports and delete the sandbox's own preview of LOD levels (crowd/lodPreview.ts).
 */
import * as bitanim from 'bitanim';
import type { AnimationWorld, Clip } from 'bitanim';

/** The LOD API as the sandbox uses it (DESIGN §5 and src/lod.ts in progress). */
export interface LodApi {
  bakeLod(clip: Clip, tolerances: number[]): Clip[];
  registerLodLevels(world: AnimationWorld, clip: Clip, levels: Clip[]): void;
  setLod(world: AnimationWorld, eid: number, options: { levels: number; distances?: readonly number[]; updateEvery?: readonly number[] }): void;
  removeLod?(world: AnimationWorld, eid: number): void;
  setLodCamera(world: AnimationWorld, x: number, y: number, z: number): void;
  getLod(world: AnimationWorld, eid: number): { level: number };
  /** The per-chunk system, run first (before sampling) when the overlay times systems one by one. */
  lodEntities?(world: AnimationWorld, dt: number, first: number, end: number): void;
}

/** `reduceClip` (DESIGN §5): a clip reduced to the keys needed for `tolerance` metres. */
export type ReduceClip = (clip: Clip, options: { tolerance: number }) => Clip & { stats?: { keysBefore: number; keysAfter: number; maxError: number; meanError?: number } };

/** `setLookAt` (DESIGN §5): aims a joint at the character's follower. */
export type SetLookAt = (world: AnimationWorld, eid: number, options: { joint: number | string; weight?: number; yawLimit?: number; pitchLimit?: number }) => void;

const exported = bitanim as unknown as Record<string, unknown>;

function optional<T>(name: string): T | undefined {
  const value = exported[name];
  return typeof value === 'function' ? (value as T) : undefined;
}

/** The LOD API when every function the crowd needs is exported, else undefined. */
export function lodApi(): LodApi | undefined {
  const names = ['bakeLod', 'registerLodLevels', 'setLod', 'setLodCamera', 'getLod'] as const;
  if (!names.every((name) => optional(name))) return undefined;
  return {
    bakeLod: optional('bakeLod')!,
    registerLodLevels: optional('registerLodLevels')!,
    setLod: optional('setLod')!,
    removeLod: optional('removeLod'),
    setLodCamera: optional('setLodCamera')!,
    getLod: optional('getLod')!,
    lodEntities: optional('lodEntities'),
  } as LodApi;
}

/** `reduceClip` when exported. */
export const reduceClip = (): ReduceClip | undefined => optional<ReduceClip>('reduceClip');

/** `setLookAt` when exported. */
export const setLookAt = (): SetLookAt | undefined => optional<SetLookAt>('setLookAt');

/** One line for the overlay: what of LOD and look-at this build of bitanim has. */
export function featureLine(): string {
  const lod = lodApi() ? 'motion LOD: runtime' : 'motion LOD: not exported yet (levels previewed by the sandbox)';
  const look = setLookAt() ? 'look-at: runtime' : 'look-at: not exported yet (followers run, heads wait for setLookAt)';
  return `${lod} · ${look}`;
}
