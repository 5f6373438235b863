/**
 * glTF animations → {@link Clip}s (the **Clips** and **Ignored** paragraphs of `../gltf.ts`):
 * channels are sorted into joint transforms and ignored kinds (one warning line per kind), the
 * clip goes to the skeleton whose joints it animates most, and its keys are resampled
 * uniformly over [0, D] (at the rate `resample.ts` chooses) with the rest pose under
 * unanimated joints and the baked non-joint ancestors composed on top.
 */
import type { Animation, AnimationSampler } from '@gltf-transform/core';
import { AnimationError, IssueList } from '../../assets/AnimationError.js';
import { createClip, type Clip } from '../../assets/Clip.js';
import { POSE_CHANNELS } from '../../assets/validatePose.js';
import { POSE_STRIDE } from '../../math/layout.js';
import { WHERE } from './container.js';
import { MAX_IMPORT_RATE, resample, type BoundTrack, type ClipSource, type Resampled, type Sampled } from './resample.js';
import { readTimes, readTrack } from './sampler.js';
import { firstNonFloat32, listNames, rethrowWithPrefix, type Context } from './shared.js';
import type { Rig } from './skeletons.js';
import type { NodeMorphs } from './meshes.js';
import { readWeightsTrack, sampleWeightCurves, type WeightsTrack } from './morphs.js';

/** Resampled clips larger than this many floats (256 MB) are refused. */
const MAX_CLIP_FLOATS = 1 << 26;

const TRS_OFFSET: Readonly<Record<string, number>> = { translation: 0, rotation: 3, scale: 7 };

/** One clip per animation that animates joints of one of `rigs`, in `animations` order. */
export function buildClips(ctx: Context, rigs: readonly Rig[], animations: readonly Animation[], morphs: ReadonlyMap<number, NodeMorphs>): Clip[] {
  const { nodeIndex, warnings, valid } = ctx;
  const issues = new IssueList(WHERE);
  const clips: Clip[] = [];
  const nodeLabel = (n: number) => `"${valid.nodeNames[n] || `node ${n}`}"`;

  animations.forEach((animation, a) => {
    const name = animation.getName() || `animation${a}`;
    const path = `animations[${a}]`;
    const head = `animation "${name}" (${path})`;
    const samplers = animation.listSamplers();
    const times = new Map<AnimationSampler, Float64Array | null>();
    const timesOf = (sampler: AnimationSampler): Float64Array | null => {
      if (!times.has(sampler)) times.set(sampler, readTimes(sampler.getInput(), issues, `${path}.samplers[${samplers.indexOf(sampler)}].input`));
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
      const track = readTrack(t.sampler, keys, t.targetPath === 'rotation' ? 4 : 3, issues, `${path}.channels[${t.channel}] (${nodeLabel(t.node)}.${t.targetPath}) sampler`);
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
      const track = readWeightsTrack(m.sampler, keys, entry, issues, `${path}.channels[${m.channel}] (${nodeLabel(m.node)}.weights) sampler`);
      if (track) weightTracks.push(track);
    }
    if (unbound.length) {
      warnings.push(`${head}: ignored ${plural(unbound.length, 'morph-target "weights" channel')} on nodes whose mesh is not bound to skeleton ${rig.index} (${listNames([...new Set(unbound)].map(nodeLabel), false)})`);
    }
    if (issues.issues.length) return;

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
      warnings.push(`${head}: animated transforms of joints ${listNames(names, false)} have shear from non-uniformly scaled non-joint ancestors; the shear is dropped`);
    }
    if (chosen.importError > ctx.tolerance) warnings.push(`${head}: ${importErrorWarning(chosen, ctx.frameRate !== null, ctx.tolerance)}`);
    if (weightTracks.length === 0) {
      clips.push(chosen.clip);
      return;
    }
    const clip = chosen.clip;
    const curves = sampleWeightCurves(weightTracks, clip.frameCount, clip.frameRate, clip.duration);
    clips.push(rethrowWithPrefix(`${path} "${name}" → `, () => createClip({
      skeleton: rig.skeleton, frameRate: clip.frameRate, frames: clip.frames, loop: true, name, importError: clip.importError, curves,
    })));
  });
  issues.throwIfAny();
  return clips;
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
