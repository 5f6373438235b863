/**
 * The bytes a world allocates, counted before anything is: `worldBytes` (src/api/world.ts) and
 * the 2 GiB check of `createAnimationWorld` (buildWorld.ts) — from the components' own
 * definitions and the frame's scratch declarations, so the count follows them as they change.
 */
import { curveSlotBytes } from './components/Curves.js';
import { defaultMaxTransitions, transitionSlotBytes } from './components/Inertialization.js';
import { MAX_LAYERS } from './components/Layers.js';
import { createUpdateList } from './components/UpdateList.js';
import { MAX_WORLD_BYTES } from './assets/limits.js';
import { heapAllocator } from './memory/poolAllocator.js';
import type { Capacity } from './worldCapacity.js';
import { createComponents, createScratch } from './worldPools.js';
import type { Frame } from './world.js';

/** Bytes of the typed arrays in `value` (an object or array of them, nested up to 3 deep). */
function typedBytes(value: unknown, depth = 0): number {
  if (ArrayBuffer.isView(value)) return value.byteLength;
  if (typeof value !== 'object' || value === null || depth > 3) return 0;
  let sum = 0;
  for (const v of Object.values(value)) sum += typedBytes(v, depth + 1);
  return sum;
}

/**
 * Coefficients of the bytes of components, scratch and the update list's ids,
 * a + b·rows + c·joints + d·rows·joints (each array is sized by rows, joints, both or
 * neither, for given layer, curve and machine slots), measured once per frame and slot counts
 * on four tiny worlds so the count follows the components and the frame's scratch
 * declarations as they are defined.
 */
const coefficients = new WeakMap<Frame, Map<number, Float64Array>>();

function poolCoefficients(frame: Frame, capacity: Capacity): Float64Array {
  const { maxLayers, maxCurves, maxMachines } = capacity;
  let byLayers = coefficients.get(frame);
  if (byLayers === undefined) coefficients.set(frame, byLayers = new Map());
  const key = ((maxCurves * (MAX_LAYERS + 1) + maxLayers) * (MAX_LAYERS + 1) + maxMachines) * 2 + (capacity.modelPose ? 1 : 0);
  let found = byLayers.get(key);
  if (found === undefined) {
    const at = (rows: number, joints: number): number => {
      const tiny: Capacity = { ...capacity, maxEntities: rows - 1, rows, maxJoints: joints, maxTransitions: 0, blendThreshold: 1 };
      return typedBytes(createComponents(tiny, heapAllocator)) + typedBytes(createScratch(frame, tiny, heapAllocator)) + typedBytes(createUpdateList(rows));
    };
    const b11 = at(1, 1), b21 = at(2, 1), b12 = at(1, 2), b22 = at(2, 2);
    const d = b22 - b21 - b12 + b11;
    const b = b21 - b11 - d, c = b12 - b11 - d;
    found = Float64Array.of(b11 - b - c - d, b, c, d);
    byLayers.set(key, found);
  }
  return found;
}

/** Bytes per record of the event queue (entity, clip, event, time). */
const EVENT_RECORD_BYTES = 3 * Int32Array.BYTES_PER_ELEMENT + Float64Array.BYTES_PER_ELEMENT;
/** The event queue's one-record stamp. */
const EVENT_STAMP_BYTES = Float64Array.BYTES_PER_ELEMENT;
/**
 * Bytes per row of the plain arrays: the pose view (`local`: 1 reference) and the update
 * list's `dt`, ~8 bytes a reference.
 */
const VIEW_ROW_BYTES = (1 + 1) * 8;

/**
 * The bytes a world of `capacity` running `frame` allocates on the JavaScript kernels: the
 * components', scratch and update-list typed arrays (counted from their definitions and the
 * frame's scratch declarations), the event queue, the per-character plain arrays, the
 * transition slots and their share of curves. `capacity` is resolved (worldCapacity.ts).
 */
export function frameWorldBytes(frame: Frame, capacity: Capacity): number {
  const [a, b, c, d] = poolCoefficients(frame, capacity) as unknown as [number, number, number, number];
  const { rows, maxJoints, maxEvents, maxTransitions, maxCurves } = capacity;
  return a + b * rows + c * maxJoints + d * rows * maxJoints + EVENT_RECORD_BYTES * maxEvents + EVENT_STAMP_BYTES + VIEW_ROW_BYTES * rows
    + transitionSlotBytes(maxTransitions, maxJoints) + curveSlotBytes(maxTransitions, maxCurves);
}

/**
 * The most characters a world of `capacity` (its joints, events and slots) holds within
 * `MAX_WORLD_BYTES`: a bisection, since the bytes grow with `maxEntities`. With
 * `transitionsGiven` false the transition slots are the default for each size (which grows with it).
 */
export function mostCharacters(frame: Frame, capacity: Capacity, transitionsGiven: boolean): number {
  const fits = (n: number): boolean => frameWorldBytes(frame, {
    ...capacity, maxEntities: n, rows: n + 1, maxTransitions: transitionsGiven ? capacity.maxTransitions : defaultMaxTransitions(n),
  }) <= MAX_WORLD_BYTES;
  let low = 0, high = 1;
  while (fits(high)) low = high, high *= 2;
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (fits(mid)) low = mid;
    else high = mid;
  }
  return low;
}

/** Bytes in a message: the count in full and in MiB or GiB. */
export function bytesText(bytes: number): string {
  const gib = bytes / 2 ** 30;
  const unit = gib >= 1 ? `${Number(gib.toPrecision(3))} GiB` : `${Number((bytes / 2 ** 20).toPrecision(3))} MiB`;
  return `${Math.round(bytes).toLocaleString('en-US')} bytes (${unit})`;
}
