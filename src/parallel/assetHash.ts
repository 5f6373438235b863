/**
 * The verify mode of a threaded world (`createAnimationWorld({ …, verifyThreads: true })`,
 * docs/threads.md): after every threaded frame each worker hashes its copies of the asset
 * tables the caller mirrors to it (src/parallel/assetMirror.ts) into the shared verify block,
 * and the caller compares them with its own hash of the same tables. A stale copy — a table
 * changed on the world's side in a way the mirror did not see — then fails the frame at once,
 * naming the table, instead of showing as a pose that differs from `step`'s.
 *
 * The hash is MurmurHash3's 32-bit block mix (Austin Appleby), a word at a time, over a walk of each table's values: numbers by their
 * float64 bits, strings by their UTF-16 code units, typed arrays by their bytes, arrays, maps,
 * sets and plain objects by their entries in order (own enumerable keys, the ones
 * `postMessage`'s structured clone copies). An object met again within one slot hashes as a
 * reference to its first visit, so shared and cyclic structure hashes alike on both sides.
 * It allocates (a map of visited objects per slot): verify mode is for tests, never on when off.
 */
import type { AnimationWorld } from '../world.js';
import { MIRRORED_REGISTRIES, type MirroredRegistry } from './assetMirror.js';

/** The tables verify mode hashes, in the order of their hashes: the mirrored registries, then the LOD level table. */
export const VERIFIED_TABLES: readonly string[] = [...MIRRORED_REGISTRIES.map((name) => `world.assets.${name}`), 'world.lod.clipLevels'];

/** How many hashes a thread writes per frame in verify mode. */
export const VERIFIED_TABLE_COUNT = MIRRORED_REGISTRIES.length + 1;

const SEED = 0x9747b28c;
const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;

/** The float64 bits of a number, as two int32 words. */
const numberBits = new Float64Array(1);
const numberWords = new Int32Array(numberBits.buffer);

/** One slot's hash state: the running hash and the objects visited, by first-visit index. */
interface HashState {
  h: number;
  readonly seen: Map<object, number>;
}

/** MurmurHash3's block step: k = rotl(k·c1, 15)·c2; h = rotl(h ⊕ k, 13)·5 + 0xe6546b64. */
function mix(state: HashState, word: number): void {
  let k = Math.imul(word, C1);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, C2);
  let h = state.h ^ k;
  h = (h << 13) | (h >>> 19);
  state.h = (Math.imul(h, 5) + 0xe6546b64) | 0;
}

function mixString(state: HashState, text: string): void {
  mix(state, text.length);
  for (let i = 0; i < text.length; i++) mix(state, text.charCodeAt(i));
}

function mixBytes(state: HashState, buffer: ArrayBufferLike, byteOffset: number, byteLength: number): void {
  mix(state, byteLength);
  const words = byteOffset % 4 === 0 ? Math.floor(byteLength / 4) : 0;
  if (words > 0) {
    const view = new Int32Array(buffer, byteOffset, words);
    for (let i = 0; i < words; i++) mix(state, view[i]);
  }
  const tail = new Uint8Array(buffer, byteOffset + words * 4, byteLength - words * 4);
  for (let i = 0; i < tail.length; i++) mix(state, tail[i]);
}

/** Tags, so that values of different kinds never hash alike by their content. */
const enum Tag { Undefined = 1, Null, False, True, Number, String, BigInt, Bytes, Array, Map, Set, Object, Seen, Other }

function mixValue(state: HashState, value: unknown): void {
  switch (typeof value) {
    case 'undefined': mix(state, Tag.Undefined); return;
    case 'boolean': mix(state, value ? Tag.True : Tag.False); return;
    case 'number':
      mix(state, Tag.Number);
      numberBits[0] = value;
      mix(state, numberWords[0]);
      mix(state, numberWords[1]);
      return;
    case 'string': mix(state, Tag.String); mixString(state, value); return;
    case 'bigint': mix(state, Tag.BigInt); mixString(state, value.toString(16)); return;
    case 'object': break;
    default: mix(state, Tag.Other); mixString(state, typeof value); return; // functions and symbols never survive a structured clone
  }
  if (value === null) {
    mix(state, Tag.Null);
    return;
  }
  const first = state.seen.get(value);
  if (first !== undefined) {
    mix(state, Tag.Seen);
    mix(state, first);
    return;
  }
  state.seen.set(value, state.seen.size);
  if (ArrayBuffer.isView(value)) {
    mix(state, Tag.Bytes);
    mixString(state, Object.prototype.toString.call(value));
    mixBytes(state, value.buffer, value.byteOffset, value.byteLength);
  } else if (value instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && value instanceof SharedArrayBuffer)) {
    mix(state, Tag.Bytes);
    mixBytes(state, value, 0, value.byteLength);
  } else if (Array.isArray(value)) {
    mix(state, Tag.Array);
    mix(state, value.length);
    for (let i = 0; i < value.length; i++) mixValue(state, value[i]);
  } else if (value instanceof Map) {
    mix(state, Tag.Map);
    mix(state, value.size);
    for (const [key, entry] of value) {
      mixValue(state, key);
      mixValue(state, entry);
    }
  } else if (value instanceof Set) {
    mix(state, Tag.Set);
    mix(state, value.size);
    for (const entry of value) mixValue(state, entry);
  } else {
    mix(state, Tag.Object);
    const keys = Object.keys(value);
    mix(state, keys.length);
    for (let i = 0; i < keys.length; i++) {
      mixString(state, keys[i]);
      mixValue(state, (value as Record<string, unknown>)[keys[i]]);
    }
  }
}

/** The hash of one value (a registry, the level table). */
export function hashAssetValue(value: unknown): number {
  const state: HashState = { h: SEED, seen: new Map() };
  if (Array.isArray(value)) {
    // A registry: each slot walked on its own, so structure shared between slots (sent in different messages) hashes alike.
    mix(state, value.length);
    for (let i = 0; i < value.length; i++) {
      state.seen.clear();
      mixValue(state, value[i]);
    }
  } else {
    mixValue(state, value);
  }
  // MurmurHash3's finalizer: every input bit reaches every output bit.
  let h = state.h;
  h ^= h >>> 16; h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13; h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

/** Writes the hash of each of {@link VERIFIED_TABLES} of `world` (the caller's or a worker's view) to `out[offset …]`. */
export function hashAssetTables(world: AnimationWorld, out: Int32Array, offset: number): void {
  const assets = world.assets as unknown as Record<MirroredRegistry, unknown[]>;
  for (let r = 0; r < MIRRORED_REGISTRIES.length; r++) out[offset + r] = hashAssetValue(assets[MIRRORED_REGISTRIES[r]]);
  out[offset + MIRRORED_REGISTRIES.length] = hashAssetValue(world.lod.clipLevels);
}
