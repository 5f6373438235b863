/**
 * Worker of bench/reducedSampling.ts: reduces the crowd's clips (built here as in the main
 * thread, `createCrowdAssets` being deterministic) with each requested `reduceClip` option set
 * and posts back, per option set and clip, the reduced curves and the reducer's stats. The
 * reducer runs in this isolate, so the timed one's compiled samplers are not discarded
 * while clips are reduced (see reducedSampling.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { reduceClip } from '../src/lod.js';
import type { ReducedTracks } from '../src/assets/ReducedTracks.js';
import type { ReducedStatsInput } from '../src/assets/reducedClip.js';
import { createCrowdAssets } from './plan.js';

/** One option set of {@link ReduceRequest}. */
export interface ReduceOptions {
  readonly tolerance: number;
  readonly method: 'atkins' | 'uniform';
  readonly quantize: boolean;
}

/** What the worker posts: per option set, per crowd clip. */
export type ReduceReply = { readonly tracks: ReducedTracks; readonly stats: ReducedStatsInput }[][];

const { clips } = createCrowdAssets();
const reply: ReduceReply = (workerData as readonly ReduceOptions[]).map((options) =>
  clips.map((clip) => {
    const reduced = reduceClip(clip, options);
    const { bytes: _bytes, sourceBytes: _sourceBytes, ...stats } = reduced.stats!;
    return { tracks: reduced.reduced!, stats };
  }),
);
parentPort!.postMessage(reply);
