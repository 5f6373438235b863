/**
 * glTF animations → {@link Clip}s (the **Clips** and **Ignored** paragraphs of `../gltf.ts`):
 * channels are sorted into joint transforms and ignored kinds (one warning line per kind), the
 * clip goes to the skeleton whose joints it animates most, and its keys are resampled
 * uniformly over [0, D] (at the rate `resample.ts` chooses) with the rest pose under
 * unanimated joints and the baked non-joint ancestors composed on top.
 */
import type { Accessor, Animation, AnimationSampler } from '@gltf-transform/core';
import { AnimationError, IssueList } from '../../assets/AnimationError.js';
import { createClip, type Clip } from '../../assets/Clip.js';
import { POSE_CHANNELS } from '../../assets/validatePose.js';
import { POSE_STRIDE } from '../../math/layout.js';
import { WHERE } from './container.js';
import { MAX_IMPORT_RATE, resample, type BoundTrack, type ClipSource, type Resampled, type Sampled } from './resample.js';
import { readTimes, readTrack, type Track } from './sampler.js';
import { firstNonFloat32, listNames, rethrowWithPrefix, type Context } from './shared.js';
import type { Rig } from './skeletons.js';
import type { NodeMorphs } from './meshes.js';
import { readWeightsTrack, sampleWeightCurves, type WeightsTrack } from './morphs.js';

/** Resampled clips larger than this many floats (256 MB) are refused. */
const MAX_CLIP_FLOATS = 1 << 26;

/**
 * The most animation key numbers (key times and output components) one file's animations may
 * decode, 2²⁵ (33,554,432; 256 MB as the Float64 the samplers evaluate): an accessor used by
 * many samplers or animations is decoded once and counted once, so this bounds the work by
 * the file's distinct keys. A file past it is refused, naming the count.
 */
export const MAX_GLTF_KEY_NUMBERS = 1 << 25;

/**
 * The most frame floats one file's clips may hold together, 2²⁶ (67,108,864; 256 MB of
 * Float32, as much as one clip may hold): animations identical in their channels, samplers
 * and accessors (a file repeating an animation under other names) give clips that share one
 * resampled frame array, counted once. A file past it is refused, naming the count.
 */
export const MAX_GLTF_CLIP_FLOATS = 1 << 26;

/**
 * What one file's animations decoded, so that nothing is decoded twice: each sampler input
 * (by accessor), each transform or weights track (by input, output, interpolation and width),
 * each distinct animation's clip (by its rig, duration and tracks), and the totals the
 * limits above bound.
 */
interface Decoded {
  readonly ids: Map<object, number>;
  /** The inputs and track keys counted in `keyNumbers` (before they are decoded). */
  readonly counted: Set<Accessor | string>;
  readonly times: Map<Accessor, Float64Array | null>;
  readonly tracks: Map<string, Track | WeightsTrack | null>;
  readonly clips: Map<string, { readonly clip: Clip; readonly notes: readonly string[] }>;
  keyNumbers: number;
  clipFloats: number;
}

/** A small id for `object` (an accessor or a track), the same for every use in the file. */
function idOf(decoded: Decoded, object: object | null): number {
  if (object === null) return -1;
  let id = decoded.ids.get(object);
  if (id === undefined) decoded.ids.set(object, (id = decoded.ids.size));
  return id;
}

/** The key of a sampler's track in `Decoded.tracks`: its input, output, interpolation and kind (`vec3`, `vec4`, `weights of node n`). */
function trackKey(decoded: Decoded, sampler: AnimationSampler, kind: string): string {
  return `${idOf(decoded, sampler.getInput())}/${idOf(decoded, sampler.getOutput())}/${sampler.getInterpolation()}/${kind}`;
}

/**
 * Counts the key numbers animation `path` will decode that the file has not decoded yet — each
 * new input accessor's times, each new track's output components — before any is decoded,
 * refusing the file when the total passes {@link MAX_GLTF_KEY_NUMBERS}.
 */
function countKeyNumbers(decoded: Decoded, animation: Animation, nodeIndex: ReadonlyMap<object, number>, path: string): void {
  let more = 0;
  for (const channel of animation.listChannels()) {
    const sampler = channel.getSampler();
    const targetPath = channel.getTargetPath();
    if (sampler === null) continue;
    const input = sampler.getInput(), output = sampler.getOutput();
    if (input !== null && !decoded.counted.has(input)) {
      decoded.counted.add(input);
      more += input.getCount();
    }
    const node = channel.getTargetNode();
    const kind = targetPath === 'rotation' ? 'vec4' : targetPath === 'translation' || targetPath === 'scale' ? 'vec3'
      : targetPath === 'weights' && node !== null ? `weights of node ${nodeIndex.get(node)}` : null;
    if (kind === null || output === null) continue;
    const key = trackKey(decoded, sampler, kind);
    if (decoded.counted.has(key)) continue;
    decoded.counted.add(key);
    more += output.getCount() * output.getElementSize();
  }
  decoded.keyNumbers += more;
  if (decoded.keyNumbers > MAX_GLTF_KEY_NUMBERS) {
    throw new AnimationError(WHERE, [{
      path,
      message: `takes the file's animation keys to ${decoded.keyNumbers} numbers (key times and output components; an accessor or sampler shared by channels or animations counted once): more than the ${MAX_GLTF_KEY_NUMBERS} one file may decode (MAX_GLTF_KEY_NUMBERS)`,
    }]);
  }
}

const TRS_OFFSET: Readonly<Record<string, number>> = { translation: 0, rotation: 3, scale: 7 };

/**
 * The most animation channels one file may hold, 2¹⁷ (131,072), its repeated animations
 * counted once (a humanoid of 60 joints animates some 180 channels: 700 distinct animations of
 * it fit). A file past it is refused, naming the count.
 */
export const MAX_GLTF_CHANNELS = 1 << 17;

/**
 * The glTF JSON with each animation that repeats an earlier one — the same channels and
 * samplers, whatever its name, extras or extensions — left out, and for each animation kept
 * the file's animations it stands for (itself first), so that @gltf-transform builds each
 * distinct animation's channels once and the importer reads and resamples it once.
 * @throws AnimationError when the distinct animations hold more than {@link MAX_GLTF_CHANNELS} channels.
 */
export function uniqueAnimations(json: Record<string, unknown>): { json: Record<string, unknown>; copies: AnimationCopy[][] } {
  const animations = Array.isArray(json['animations']) ? (json['animations'] as Record<string, unknown>[]) : [];
  const kept: Record<string, unknown>[] = [];
  const copies: AnimationCopy[][] = [];
  const seen = new Map<string, number>();
  let channels = 0;
  animations.forEach((animation, index) => {
    const name = typeof animation['name'] === 'string' ? animation['name'] : '';
    const key = JSON.stringify([animation['channels'], animation['samplers']]);
    const at = seen.get(key);
    if (at !== undefined) {
      copies[at].push({ index, name });
      return;
    }
    channels += Array.isArray(animation['channels']) ? animation['channels'].length : 0;
    if (channels > MAX_GLTF_CHANNELS) {
      throw new AnimationError(WHERE, [{
        path: `animations[${index}].channels`,
        message: `takes the file's distinct animations to ${channels} channels: more than the ${MAX_GLTF_CHANNELS} one file may hold (MAX_GLTF_CHANNELS)`,
      }]);
    }
    seen.set(key, kept.length);
    kept.push(animation);
    copies.push([{ index, name }]);
  });
  return { json: kept.length === animations.length ? json : { ...json, animations: kept }, copies };
}

/**
 * An animation of the file: its index in the file's `animations` and its name (`''` when it has none).
 */
export interface AnimationCopy {
  readonly index: number;
  readonly name: string;
}

/**
 * One clip per animation that animates joints of one of `rigs`, in the file's animation order.
 * `animations` are the file's distinct animations (see {@link uniqueAnimations}) and `copies[u]`
 * the file's animations that are `animations[u]` (the first is itself): each copy gets the
 * clip of its original, renamed (the frames shared), and its warnings.
 */
export function buildClips(
  ctx: Context, rigs: readonly Rig[], animations: readonly Animation[], morphs: ReadonlyMap<number, NodeMorphs>,
  copies: readonly (readonly AnimationCopy[])[] = animations.map((animation, a) => [{ index: a, name: animation.getName() }]),
): Clip[] {
  const { nodeIndex, warnings, valid } = ctx;
  const issues = new IssueList(WHERE);
  const clips: Clip[] = [];
  const nodeLabel = (n: number) => `"${valid.nodeNames[n] || `node ${n}`}"`;
  const decoded: Decoded = { ids: new Map(), counted: new Set(), times: new Map(), tracks: new Map(), clips: new Map(), keyNumbers: 0, clipFloats: 0 };
  /** The key times of an accessor, decoded once for the file. */
  const inputTimes = (input: Accessor | null, path: string): Float64Array | null => {
    if (input === null) return readTimes(input, issues, path);
    if (!decoded.times.has(input)) decoded.times.set(input, readTimes(input, issues, path));
    return decoded.times.get(input)!;
  };
  /** A sampler's track, decoded once for the file per input, output, interpolation and kind. */
  const trackOf = <T extends Track | WeightsTrack>(sampler: AnimationSampler, kind: string, read: () => T | null): T | null => {
    const key = trackKey(decoded, sampler, kind);
    if (!decoded.tracks.has(key)) decoded.tracks.set(key, read());
    return decoded.tracks.get(key) as T | null;
  };

  const byIndex: (Clip | undefined)[] = [];
  animations.forEach((animation, u) => {
    const [first, ...others] = copies[u];
    const warned = warnings.length, made = clips.length;
    buildOne(animation, first.index, first.name || `animation${first.index}`);
    const clip = clips.length > made ? clips[clips.length - 1] : undefined;
    byIndex[first.index] = clip;
    const head = `animation "${first.name || `animation${first.index}`}" (animations[${first.index}])`;
    const notes = warnings.slice(warned).map((w) => (w.startsWith(head) ? w.slice(head.length) : `: ${w}`));
    for (const copy of others) {
      const name = copy.name || `animation${copy.index}`;
      for (const note of notes) warnings.push(`animation "${name}" (animations[${copy.index}])${note}`);
      if (clip !== undefined) byIndex[copy.index] = Object.freeze({ ...clip, name });
    }
  });
  issues.throwIfAny();
  return byIndex.filter((clip): clip is Clip => clip !== undefined);

  function buildOne(animation: Animation, a: number, name: string): void {
    const path = `animations[${a}]`;
    const head = `animation "${name}" (${path})`;
    countKeyNumbers(decoded, animation, nodeIndex, path); // before anything is decoded
    const samplerIndex = new Map(animation.listSamplers().map((sampler, k) => [sampler, k])); // (indexOf per channel would be quadratic)
    const times = new Map<AnimationSampler, Float64Array | null>();
    const timesOf = (sampler: AnimationSampler): Float64Array | null => {
      if (!times.has(sampler)) times.set(sampler, inputTimes(sampler.getInput(), `${path}.samplers[${samplerIndex.get(sampler)}].input`));
      return times.get(sampler)!;
    };

    // Classify channels; the duration counts every channel, as three.js does.
    let duration = 0;
    let moving = false; // some channel has two keys or more
    const transform: Array<{ node: number; targetPath: string; sampler: AnimationSampler; channel: number }> = [];
    const morph: Array<{ node: number; sampler: AnimationSampler; channel: number }> = [];
    const noNode: number[] = [], otherPath: string[] = [];
    animation.listChannels().forEach((channel, c) => {
      const sampler = channel.getSampler();
      const keys = sampler ? timesOf(sampler) : null;
      if (keys) {
        duration = Math.max(duration, keys[keys.length - 1]);
        if (keys.length > 1) moving = true;
      }
      const target = channel.getTargetNode();
      const targetPath = channel.getTargetPath() ?? '';
      const node = target ? nodeIndex.get(target)! : -1;
      if (targetPath === 'weights') {
        if (node < 0) noNode.push(c);
        else if (sampler) morph.push({ node, sampler, channel: c });
      }
      else if (!(targetPath in TRS_OFFSET)) otherPath.push(targetPath);
      else if (node < 0) noNode.push(c);
      else if (sampler) transform.push({ node, targetPath, sampler, channel: c });
    });
    if (noNode.length) warnings.push(`${head}: ignored ${plural(noNode.length, 'channel')} without a target node (an extension such as KHR_animation_pointer)`);
    if (otherPath.length) warnings.push(`${head}: ignored ${plural(otherPath.length, 'channel')} with an unsupported path (${listNames([...new Set(otherPath)])})`);

    // The skeleton whose joints it animates most.
    let rig: Rig | null = null;
    let best = 0;
    for (const r of rigs) {
      const count = transform.filter((t) => r.jointOf.has(t.node)).length;
      if (count > best) {
        best = count;
        rig = r;
      }
    }
    if (!rig) {
      warnings.push(`${head}: animates no joint of any skin${rigs.length ? '' : ' (the file has no skins)'}: no clip`);
      return;
    }

    const bound: BoundTrack[] = [];
    const ancestors: number[] = [], strangers: number[] = [];
    for (const t of transform) {
      const joint = rig.jointOf.get(t.node);
      if (joint === undefined) {
        (rig.baked.has(t.node) ? ancestors : strangers).push(t.node);
        continue;
      }
      const keys = timesOf(t.sampler);
      if (!keys) continue;
      const size = t.targetPath === 'rotation' ? 4 : 3;
      const where = `${path}.channels[${t.channel}] (${nodeLabel(t.node)}.${t.targetPath}) sampler`;
      const track = trackOf(t.sampler, `vec${size}`, () => readTrack(t.sampler, keys, size, issues, where));
      if (track) bound.push({ joint, offset: TRS_OFFSET[t.targetPath], track });
    }
    if (ancestors.length) {
      warnings.push(`${head}: ignored ${plural(ancestors.length, 'channel')} on non-joint ancestors of skeleton ${rig.index}'s joints (${listNames([...new Set(ancestors)].map(nodeLabel), false)}): their rest transforms are baked into the joints`);
    }
    if (strangers.length) {
      warnings.push(`${head}: ignored ${plural(strangers.length, 'channel')} on nodes that are not joints of skeleton ${rig.index} (${listNames([...new Set(strangers)].map(nodeLabel), false)})`);
    }
    // Morph-target weights of meshes bound to this skeleton become curves.
    const weightTracks: WeightsTrack[] = [];
    const unbound: number[] = [];
    for (const m of morph) {
      const entry = morphs.get(m.node);
      if (!entry || entry.rig !== rig.index) {
        unbound.push(m.node);
        continue;
      }
      const keys = timesOf(m.sampler);
      if (!keys) continue;
      const where = `${path}.channels[${m.channel}] (${nodeLabel(m.node)}.weights) sampler`;
      const track = trackOf(m.sampler, `weights of node ${m.node}`, () => readWeightsTrack(m.sampler, keys, entry, issues, where));
      if (track) weightTracks.push(track);
    }
    if (unbound.length) {
      warnings.push(`${head}: ignored ${plural(unbound.length, 'morph-target "weights" channel')} on nodes whose mesh is not bound to skeleton ${rig.index} (${listNames([...new Set(unbound)].map(nodeLabel), false)})`);
    }
    if (issues.issues.length) return;

    // An animation made of the same tracks on the same joints as an earlier one (a file that
    // repeats an animation under other names) is that clip again, renamed: its frames shared.
    const signature = `${rig.index} ${moving ? duration : 0} ${bound.map((b) => `${b.joint}.${b.offset}.${idOf(decoded, b.track)}`).join(',')} ${weightTracks.map((w) => idOf(decoded, w)).join(',')}`;
    const same = decoded.clips.get(signature);
    if (same !== undefined) {
      for (const note of same.notes) warnings.push(`${head}: ${note}`);
      clips.push(Object.freeze({ ...same.clip, name }));
      return;
    }
    const notes: string[] = [];
    const note = (text: string): void => {
      notes.push(text);
      warnings.push(`${head}: ${text}`);
    };
    const keep = (clip: Clip): void => {
      decoded.clipFloats += clip.frames.length;
      if (decoded.clipFloats > MAX_GLTF_CLIP_FLOATS) {
        throw new AnimationError(WHERE, [{
          path,
          message: `takes the file's clips to ${decoded.clipFloats} frame floats (${clip.frames.length} for "${name}"; identical animations share theirs): more than the ${MAX_GLTF_CLIP_FLOATS} one file's clips may hold (MAX_GLTF_CLIP_FLOATS)`,
        }]);
      }
      decoded.clips.set(signature, { clip, notes });
      clips.push(clip);
    };

    const jointCount = rig.skeleton.jointCount;
    // Single keys everywhere: a constant pose, stored as one frame whatever the key times.
    const keyTimes = Float64Array.from(new Set(bound.flatMap((b) => [...b.track.times]))).sort();
    const source: ClipSource = { rig, bound, duration: moving ? duration : 0, keyTimes, scale: ctx.scale, tolerance: ctx.tolerance };
    let tooLong = 0;
    const fits = (frameCount: number): boolean => {
      if (frameCount * jointCount * POSE_STRIDE <= MAX_CLIP_FLOATS) return true;
      tooLong = frameCount;
      return false;
    };
    const build = (sampled: Sampled): Clip => {
      const frames = sampled.frames;
      const bad = firstNonFloat32(frames);
      if (bad >= 0) {
        const f = Math.floor(bad / (jointCount * POSE_STRIDE)), j = Math.floor(bad / POSE_STRIDE) % jointCount;
        throw new AnimationError(WHERE, [{ path: `${path} frame ${f} joint "${rig.skeleton.names[j]}".${POSE_CHANNELS[bad % POSE_STRIDE]}`, message: 'overflows float32: the keys are out of range' }]);
      }
      return rethrowWithPrefix(`${path} "${name}" → `, () => createClip({ skeleton: rig.skeleton, frameRate: sampled.rate, frames, loop: true, name }));
    };
    const chosen = resample(source, ctx.frameRate, build, fits);
    if (!chosen) {
      issues.add(path, `lasts ${duration} s: ${tooLong} frames of ${jointCount} joints exceed the ${MAX_CLIP_FLOATS}-float clip limit`);
      return;
    }
    if (chosen.sheared.size) {
      const names = [...chosen.sheared].map((j) => `"${rig.skeleton.names[j]}"`);
      note(`animated transforms of joints ${listNames(names, false)} have shear from non-uniformly scaled non-joint ancestors; the shear is dropped`);
    }
    if (chosen.importError > ctx.tolerance) note(importErrorWarning(chosen, ctx.frameRate !== null, ctx.tolerance));
    if (weightTracks.length === 0) {
      keep(chosen.clip);
      return;
    }
    const clip = chosen.clip;
    const curves = sampleWeightCurves(weightTracks, clip.frameCount, clip.frameRate, clip.duration);
    keep(rethrowWithPrefix(`${path} "${name}" → `, () => createClip({
      skeleton: rig.skeleton, frameRate: clip.frameRate, frames: clip.frames, loop: true, name, importError: clip.importError, curves,
    })));
  }
}

/** Why a clip is further than the bound from its keys, as a sentence after the animation's name. */
function importErrorWarning(chosen: Resampled, forced: boolean, tolerance: number): string {
  const off = `its frames are up to ${formatLength(chosen.importError)} off the file's keys`;
  const rate = `${Number(chosen.rate.toPrecision(5))} fps`;
  const bound = formatLength(tolerance);
  if (forced) return `at the given frameRate (${rate}) ${off}, more than ${bound}; without frameRate the importer picks a rate within it`;
  const why = chosen.stop === 'stall'
    ? 'a higher rate was no closer (STEP keys jump between two frames at any rate)'
    : chosen.stop === 'size' ? 'a higher rate would make the clip too large to search' : `no rate up to ${MAX_IMPORT_RATE} fps gets within it`;
  return `at ${rate} ${off}, more than ${bound}: ${why}`;
}

/** Metres as mm with 2 significant digits (file units are taken as metres without `scale`). */
function formatLength(metres: number): string {
  return `${Number((metres * 1000).toPrecision(2))} mm`;
}

function plural(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? '' : 's'}`;
}
