/**
 * Micro-benchmark: how to find a reduced clip's segment at sampling time. Run with
 * `npx tsc -p tsconfig.bench.json && node .bench-build/bench/reducedSearch.js`
 * (BENCH_REDUCED sets the crowd size, default 2,000; BENCH_FRAMES the frames per round).
 *
 * Data: the crowd's two clips (64 joints; 31 and 41 frames at 30 fps) reduced by the stand-in
 * decimation (test/fixtures/decimate.ts; every 2nd frame, or a stride of 2, 3 or 4 by channel),
 * so all strategies evaluate the same cubics. Workload: as the reduced rows of `npm run bench`
 * — each character its own time and speed on one clip, sampled every frame into its own pose.
 *
 * Strategies:
 * - per channel, binary search over the channel's key times;
 * - per channel, a bucket index (one bucket per segment, each holding the segment at its start)
 *   and a forward scan;
 * - per channel, a cursor kept per character and channel (the last segment used), scanning
 *   forward from it and restarting at the channel's first key when time went back (a loop);
 *   it needs `characters × layers × jointCount × 10` cursors of state besides the clip;
 * - per track (what `sampleReducedInto` does): one lookup per joint translation, rotation and
 *   scale in a bucket table of about one row per frame, at most one step, then the track's
 *   coefficients, re-expanded about the union of its channels' keys, contiguous.
 *
 * The per-channel strategies share one packing: per channel its key times (float32) and 4
 * coefficients per key (the last key holds the end value), and the quaternion is normalized
 * per joint after its four channels. Timing is process CPU time (robust to other processes
 * on a shared machine), best of several interleaved rounds. Results go to stdout.
 */
import type { Clip } from '../src/index.js';
import { sampleClipInto } from '../src/kernels.js';
import { sampleReducedInto } from '../src/assets/sampleReduced.js';
import type { ReducedChannel } from '../src/assets/ReducedTracks.js';
import { decimateChannels, decimateClip } from '../test/fixtures/decimate.js';
import { reducedCrowdSize } from './reducedSampling.js';
import { createCrowdAssets, JOINT_COUNT, planCrowd } from './plan.js';

/** One clip packed per channel for the per-channel strategies. */
interface ChannelPacking {
  readonly duration: number;
  readonly endTime: number;
  /** `channels + 1`: first key of each channel. */
  readonly keyStart: Uint32Array;
  readonly keyTimes: Float32Array;
  /** 4 per key; a channel's last key holds (end value, 0, 0, 0). */
  readonly coefficients: Float32Array;
  /** `channels + 1`: first bucket of each channel; a channel has segments + 1 buckets. */
  readonly bucketStart: Uint32Array;
  /** Buckets per second of each channel. */
  readonly bucketScale: Float64Array;
  /** Key (absolute index) in force at the smallest 32-bit time of each bucket. */
  readonly bucketKey: Uint32Array;
}

function packChannels(channels: readonly ReducedChannel[], duration: number): ChannelPacking {
  const count = channels.length;
  const keyStart = new Uint32Array(count + 1);
  let keys = 0;
  for (let ch = 0; ch < count; ch++) { keyStart[ch] = keys; keys += channels[ch]!.keyTimes.length; }
  keyStart[count] = keys;
  const keyTimes = new Float32Array(keys);
  const coefficients = new Float32Array(4 * keys);
  const bucketStart = new Uint32Array(count + 1);
  const bucketScale = new Float64Array(count);
  const bucketKeys: number[] = [];
  for (let ch = 0; ch < count; ch++) {
    const { keyTimes: times, coefficients: co } = channels[ch]!;
    const first = keyStart[ch]!, segments = times.length - 1;
    for (let k = 0; k <= segments; k++) keyTimes[first + k] = times[k]!;
    keyTimes[first + segments] = Math.fround(duration);
    for (let i = 0; i < 4 * segments; i++) coefficients[4 * first + i] = co[i]!;
    const h = times[segments]! - times[segments - 1]!, o = 4 * (segments - 1);
    coefficients[4 * (first + segments)] = co[o]! + h * (co[o + 1]! + h * (co[o + 2]! + h * co[o + 3]!));
    bucketStart[ch] = bucketKeys.length;
    const scale = segments / duration;
    bucketScale[ch] = scale;
    for (let b = 0; b <= segments; b++) {
      // Conservative: the last key whose bucket index is below b (the row start may round below b / scale).
      let key = first;
      for (let k = first; k < first + segments; k++) if (Math.floor(keyTimes[k]! * scale) < b) key = k;
      bucketKeys.push(key);
    }
  }
  bucketStart[count] = bucketKeys.length;
  return { duration, endTime: Math.fround(duration), keyStart, keyTimes, coefficients, bucketStart, bucketScale, bucketKey: Uint32Array.from(bucketKeys) };
}

/** Normalizes the quaternion of every joint of a pose in place. */
function normalizeRotations(out: Float32Array, outOff: number, jointCount: number): void {
  for (let j = 0; j < jointCount; j++) {
    const o = outOff + j * 10 + 3;
    const x = out[o]!, y = out[o + 1]!, z = out[o + 2]!, w = out[o + 3]!;
    const inv = 1 / Math.sqrt(x * x + y * y + z * z + w * w);
    out[o] = x * inv; out[o + 1] = y * inv; out[o + 2] = z * inv; out[o + 3] = w * inv;
  }
}

function sampleBinary(out: Float32Array, outOff: number, p: ChannelPacking, times: Float64Array, ti: number): void {
  const { keyStart, keyTimes, coefficients } = p;
  let t = times[ti]!;
  if (!(t > 0)) t = 0; else if (t > p.endTime) t = p.endTime;
  const ts = Math.fround(t);
  const count = keyStart.length - 1;
  for (let ch = 0; ch < count; ch++) {
    let lo = keyStart[ch]!, hi = keyStart[ch + 1]! - 1; // keyTimes[lo] ≤ ts; the answer is < hi unless ts = end
    if (keyTimes[hi]! <= ts) lo = hi;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (keyTimes[mid]! <= ts) lo = mid; else hi = mid;
    }
    const u = t - keyTimes[lo]!, o = lo << 2;
    out[outOff + ch] = coefficients[o]! + u * (coefficients[o + 1]! + u * (coefficients[o + 2]! + u * coefficients[o + 3]!));
  }
  normalizeRotations(out, outOff, count / 10);
}

function sampleBucket(out: Float32Array, outOff: number, p: ChannelPacking, times: Float64Array, ti: number): void {
  const { keyStart, keyTimes, coefficients, bucketStart, bucketScale, bucketKey } = p;
  let t = times[ti]!;
  if (!(t > 0)) t = 0; else if (t > p.endTime) t = p.endTime;
  const ts = Math.fround(t);
  const count = keyStart.length - 1;
  for (let ch = 0; ch < count; ch++) {
    const last = keyStart[ch + 1]! - 1;
    let k = bucketKey[bucketStart[ch]! + ((ts * bucketScale[ch]!) | 0)]!;
    while (k < last && keyTimes[k + 1]! <= ts) k++;
    const u = t - keyTimes[k]!, o = k << 2;
    out[outOff + ch] = coefficients[o]! + u * (coefficients[o + 1]! + u * (coefficients[o + 2]! + u * coefficients[o + 3]!));
  }
  normalizeRotations(out, outOff, count / 10);
}

function sampleCursor(out: Float32Array, outOff: number, p: ChannelPacking, times: Float64Array, ti: number, cursor: Uint32Array, curOff: number): void {
  const { keyStart, keyTimes, coefficients } = p;
  let t = times[ti]!;
  if (!(t > 0)) t = 0; else if (t > p.endTime) t = p.endTime;
  const ts = Math.fround(t);
  const count = keyStart.length - 1;
  for (let ch = 0; ch < count; ch++) {
    const last = keyStart[ch + 1]! - 1;
    let k = cursor[curOff + ch]!;
    if (!(k >= keyStart[ch]! && k <= last && keyTimes[k]! <= ts)) k = keyStart[ch]!; // first use, another clip, or time went back
    while (k < last && keyTimes[k + 1]! <= ts) k++;
    cursor[curOff + ch] = k;
    const u = t - keyTimes[k]!, o = k << 2;
    out[outOff + ch] = coefficients[o]! + u * (coefficients[o + 1]! + u * (coefficients[o + 2]! + u * coefficients[o + 3]!));
  }
  normalizeRotations(out, outOff, count / 10);
}

interface DataSet {
  readonly label: string;
  readonly reduced: readonly Clip[];
  readonly packed: readonly ChannelPacking[];
}

async function main(): Promise<void> {
  const assets = createCrowdAssets();
  const count = reducedCrowdSize() || 2000;
  const frames = Number(process.env['BENCH_FRAMES'] ?? 50) || 50;
  const dt = 1 / 60;
  const poseSize = JOINT_COUNT * 10;
  const sets: DataSet[] = [
    ['every 2nd frame', (): number => 2],
    ['stride 2, 3 or 4 by channel', (ch: number): number => 2 + (ch % 3)],
  ].map(([label, stride]) => {
    const s = stride as (ch: number) => number;
    return {
      label: label as string,
      reduced: assets.clips.map((c) => decimateClip(c, s)),
      packed: assets.clips.map((c) => packChannels(decimateChannels(c, s), c.duration)),
    };
  });
  const plan = planCrowd(assets, count, [1, 1]);
  const out = new Float32Array(count * poseSize);
  const check = new Float32Array(poseSize);
  const times = new Float64Array(count);
  const speeds = new Float64Array(count);
  const cursor = new Uint32Array(count * poseSize);
  const reset = (): void => {
    for (let i = 0; i < count; i++) { times[i] = plan.startTime[i * 2]! % assets.clips[i & 1]!.duration; speeds[i] = plan.speed[i * 2]!; }
  };
  type Strategy = (set: DataSet, i: number, clipIndex: number) => void;
  const strategies: [string, Strategy][] = [
    ['uniform clip (sampleClipInto, two frames)', (_s, i, c) => sampleClipInto(out, i * poseSize, assets.clips[c]!, times, i)],
    ['per channel: binary search', (s, i, c) => sampleBinary(out, i * poseSize, s.packed[c]!, times, i)],
    ['per channel: bucket index + forward scan', (s, i, c) => sampleBucket(out, i * poseSize, s.packed[c]!, times, i)],
    ['per channel: cursor per character and channel', (s, i, c) => sampleCursor(out, i * poseSize, s.packed[c]!, times, i, cursor, i * poseSize)],
    ['per track: bucket table + one step (sampleReducedInto, kept)', (s, i, c) => sampleReducedInto(out, i * poseSize, s.reduced[c]!, times, i)],
  ];
  const run = (strategy: Strategy, set: DataSet, n: number): void => {
    for (let f = 0; f < n; f++) {
      for (let i = 0; i < count; i++) {
        const c = i & 1;
        const duration = assets.clips[c]!.duration;
        let t = times[i]! + speeds[i]! * dt;
        t -= Math.floor(t / duration) * duration;
        times[i] = t < duration ? t : 0;
        strategy(set, i, c);
      }
    }
  };

  console.log(`# Reduced-clip segment search: ns per joint, ${count.toLocaleString('en-US')} characters × ${JOINT_COUNT} joints\n`);
  for (const set of sets) {
    // All strategies agree with sampleReducedInto (to float32 rounding of the re-expanded coefficients).
    reset();
    let worst = 0;
    for (let k = 1; k < strategies.length - 1; k++) {
      run(strategies[k]![1], set, 3);
      for (let i = 0; i < 50; i++) {
        sampleReducedInto(check, 0, set.reduced[i & 1]!, times, i);
        for (let x = 0; x < poseSize; x++) worst = Math.max(worst, Math.abs(check[x]! - out[i * poseSize + x]!));
      }
    }
    if (!(worst < 1e-4)) throw new Error(`reducedSearch: strategies disagree by ${worst}`);
    reset();
    for (const [, strategy] of strategies) run(strategy, set, 20); // warm-up
    const best = strategies.map(() => Infinity);
    for (let round = 0; round < 7; round++) {
      for (let k = 0; k < strategies.length; k++) {
        const start = process.cpuUsage();
        run(strategies[k]![1], set, frames);
        const used = process.cpuUsage(start);
        best[k] = Math.min(best[k]!, ((used.user + used.system) * 1e3) / (count * JOINT_COUNT * frames));
      }
    }
    const keys = set.packed.reduce((sum, p) => sum + p.keyTimes.length, 0);
    const all = assets.clips.reduce((sum, c) => sum + c.frameCount * poseSize, 0);
    console.log(`## ${set.label} (${(100 * keys / all).toFixed(1)} % of channel-frames kept; strategies agree to ${worst.toExponential(1)})\n`);
    console.log('| strategy | ns/joint | vs uniform |');
    console.log('| --- | ---: | ---: |');
    for (let k = 0; k < strategies.length; k++) {
      console.log(`| ${strategies[k]![0]} | ${best[k]!.toFixed(1)} | ${(best[k]! / best[0]!).toFixed(2)}× |`);
    }
    console.log('');
  }
  console.log('CPU time of this process, best of 7 interleaved rounds; each character advances its own time every frame.');
}

await main();
