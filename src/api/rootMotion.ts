/**
 * Root-motion API: where a character is (`getRootTransform`), placing and steering it
 * (`setRootTransform`, with or without root motion), and the playback rate that makes it move
 * at a speed (`setTargetSpeed`; Tokage It Lab's appendix 2). See
 * rootMotionSystem.ts for the model.
 */
import { fail } from '../assets/AnimationError.js';
import { getRootTrack } from '../assets/rootTrack.js';
import {
  blendedTravel, CYCLE_MAX, CYCLE_NET, MIN_CYCLE_TRAVEL, MIN_CYCLE_TRAVEL_SHARE as TRAVEL_SHARE, NO_TRAVEL, RATE, resetTravelRates, setBlendRate, standingHeight, TRAVEL, travels,
} from '../systems/switching/targetSpeed.js';
import { blendSpaceWeightsAt, type BlendSpace } from '../assets/BlendSpace.js';
import type { Clip } from '../assets/Clip.js';
import { movesRoot } from '../components/layerRules.js';
import { FLOAT32_MAX, MAX_PLAYBACK_RATE, rangeIssue, shownNumber, shownValue, shownString } from '../assets/limits.js';
import { isFiniteNumber, requireCharacter, requireOptions } from './validation.js';
import type { AnimationWorld } from '../world.js';
import type { Skeleton } from '../assets/Skeleton.js';
import { NO_MACHINE } from '../components/StateMachine.js';

/** A character's world transform: position in metres, heading about +Y in radians. */
export interface RootTransform {
  /** World position x, metres. */
  readonly x: number;
  /** World position y (up), metres. */
  readonly y: number;
  /** World position z, metres. */
  readonly z: number;
  /** Heading about +Y, radians (0 faces +Z; +π/2 faces +X). */
  readonly yaw: number;
}

/**
 * The world transform root motion has moved character `eid` to.
 * @throws AnimationError when `eid` is not a character of this world.
 */
export function getRootTransform(world: AnimationWorld, eid: number): RootTransform {
  requireCharacter(world, eid, 'getRootTransform');
  const { x, y, z, yaw } = world.components.RootMotion;
  return { x: x[eid], y: y[eid], z: z[eid], yaw: yaw[eid] };
}

/** Options of {@link setTargetSpeed}. */
export interface TargetSpeedOptions {
  /**
   * How a cycle's travel is measured (Tokage It Lab's two normalizations): `'net'` (default) the
   * root's net displacement over the cycle, `'max'` the farthest it gets from where the cycle
   * started (see `RootTrack.maxDistance`), in the direction of its net displacement. With
   * `'max'` a clip whose root overshoots and comes part of the way back plays at the rate of a
   * straight clip that reaches as far. `'max'` needs at least 1 mm
   * on the character: a clip whose cycle ends under 1 mm from where it started has no
   * direction (Tokage It Lab drops cycles that come back to their start), and a clip or blend
   * whose farthest travel per cycle is under 1 mm is refused.
   */
  cycle?: 'net' | 'max';
}

/**
 * Sets the playback rate of the weighted override layers of `eid` so that the character
 * travels at `metersPerSecond` (Tokage It Lab's appendix 2), and remembers the speed:
 * `setBlendSpace` re-derives the rate from it each time it changes the blend.
 *
 * The rate is v / S with S the blend's horizontal travel per second at rate 1: the layers'
 * cycle displacements — restricted to their axis, scaled by `rootScale` (hip-height ratio ×
 * stride scale) — divided by their cycle time and blended by weight as vectors, S = |Σ wᵢ eᵢ| /
 * Σ wᵢ (clips of one direction: the weighted mean of their speeds). All layers get the same
 * rate, so a blend keeps its proportions. A layer's cycle time is its clip's duration, or for
 * a member of a sync group the group's cycle duration D_g = Σ wᵢDᵢ / Σ wᵢ (each member covers
 * one cycle per D_g at rate 1). Synced members get the rate as their group's `syncRate` (every
 * member of the group, weighted or not, so a member fading in later keeps it).
 *
 * **The target survives** until {@link clearTargetSpeed}: every later switch — `play`,
 * `transition` (each mode), `setBlendSpace`, a state machine's transitions and
 * `setStateMachine` — re-derives the rate for the blend the layers are heading to (each
 * override layer at the weight it is fading to: a cross-fade's incoming clip at its goal from
 * the first frame; an outgoing copy keeps its rate, so the fade travels at the target
 * throughout). A clip or blend that does not travel (no net travel per cycle, or every clip
 * under `MIN_CYCLE_TRAVEL_SHARE` of the hips: an idle) plays at its own rate then, and the
 * target applies again to the next one that travels: no error after the first call. The
 * target decides the rate of travelling layers over a `speed` given to those calls (or a
 * machine state's `speed`); a machine state's `metersPerSecond` decides over the target.
 *
 * A blend whose weighted clips all travel less than 5 % of the character's hip height per
 * cycle (`MIN_CYCLE_TRAVEL_SHARE`; hips above the lowest joint for a capture whose rest
 * floats at y = 0) is refused: it is an in-place clip whose root drifts (2 mm per cycle under
 * 0.43 m hips would play at ~500× for 1.4 m/s, the feet skating), and the message names the
 * fix, `rootMotionFromFeet`. The remembered speed is re-derived whenever a blend space changes
 * the blend (`setBlendSpace`, a state machine's blend-space state), so the same bound holds
 * there: with a target speed, `setBlendSpace` refuses a point where a clip that drifts so
 * weighs (alone it would play far too fast; beside a gait, the stride scales shrink the gait's
 * travel to the drift's: 248× for the Fox's run half-blended with a 2 mm drift), and this
 * function refuses a character whose state machines have a blend-space state with such a clip.
 *
 * This call itself checks the blend playing now and refuses it when it cannot be driven (below):
 * call it while a clip that travels plays (or give a machine's states `metersPerSecond`).
 *
 * The rate is at most `MAX_PLAYBACK_RATE` (1000×): a speed the blend could reach only faster
 * is refused, naming the speed, the blend's travel per second and the rate it would take (a
 * clip travelling 60 mm per 1 s cycle would play at 1667× for 100 m/s). When `setBlendSpace`
 * later re-derives the rate for another blend, it holds it at 1000× instead.
 *
 * @example
 * // hips 0.7 m, clip hips 1.25 m, 2.0 m per 1.2 s cycle → rate 1.7858 for 1.6667 m/s
 * setTargetSpeed(world, eid, 1.6667);
 * @throws AnimationError for a speed that is not a finite number in [0, 3.4e38] (Float32's
 * range), an unknown `cycle`, a speed that would need a rate above 1000×, or
 * when the weighted clips do not travel (a net cycle displacement of ~0 cannot drive a speed;
 * with `'max'`, a farthest travel per cycle under 1 mm; play such clips in place instead), or
 * travel less than `MIN_CYCLE_TRAVEL_SHARE` (5 %) of the character's hip height per cycle
 * (an in-place clip whose root drifts: give it travel with `rootMotionFromFeet`).
 * The message names the clips. Nothing changes then.
 */
export function setTargetSpeed(world: AnimationWorld, eid: number, metersPerSecond: number, options: TargetSpeedOptions = NO_OPTIONS): void {
  const where = 'setTargetSpeed';
  const skeleton = requireCharacter(world, eid, where);
  const issue = rangeIssue(metersPerSecond, 0, FLOAT32_MAX, 'm/s, the Float32 range');
  if (issue !== null) fail(where, 'metersPerSecond', issue);
  requireOptions(options, where);
  const cycle = options.cycle ?? 'net';
  if (cycle !== 'net' && cycle !== 'max') fail(where, 'cycle', `is ${shownString(cycle)}: must be 'net' or 'max'`);
  const measure = cycle === 'max' ? CYCLE_MAX : CYCLE_NET;
  blendedTravel(world, eid, measure);
  const travel = TRAVEL[0];
  if (!travels(measure)) refuseStill(world, eid, measure);
  refuseDrift(world, eid, measure, skeleton);
  if (world.components.StateMachine.enabled[eid] > 0) refuseDriftingMachines(world, eid, measure, skeleton, metersPerSecond);
  const rate = metersPerSecond / travel;
  if (rate > MAX_PLAYBACK_RATE) refuseFast(world, eid, metersPerSecond, travel, rate);
  const { RootMotion } = world.components;
  RootMotion.targetSpeed[eid] = metersPerSecond;
  RootMotion.cycleMeasure[eid] = measure;
  RATE[0] = rate;
  setBlendRate(world, eid);
}

/**
 * Forgets the target speed {@link setTargetSpeed} set for character `eid`: from now its
 * switches keep the rates they are given, and the layers the target drove play at their clips'
 * own rate again — every override layer whose clip travels (at least `MIN_CYCLE_TRAVEL_SHARE`
 * of the hips per cycle) at rate 1, with its sync group, and each state machine of the
 * character re-applies its playing state's `speed` at the next frame. Layers that do not
 * travel kept their own rate all along. Without a target it changes nothing. Allocates
 * nothing.
 * @throws AnimationError when `eid` is not a character of this world.
 * @example
 * setTargetSpeed(world, eid, 1.4);     // walks at 1.4 m/s, through transitions to idle and back
 * clearTargetSpeed(world, eid);        // the walk plays at its own rate again
 */
export function clearTargetSpeed(world: AnimationWorld, eid: number): void {
  requireCharacter(world, eid, 'clearTargetSpeed');
  const { RootMotion, StateMachine } = world.components;
  if (!(RootMotion.targetSpeed[eid] >= 0)) return;
  RootMotion.targetSpeed[eid] = -1;
  RootMotion.cycleMeasure[eid] = CYCLE_NET;
  resetTravelRates(world, eid);
  // NaN: the machine writes its state's rate at its next evaluation (StateMachine.appliedSpeed).
  for (let ms = eid * StateMachine.slots; ms < (eid + 1) * StateMachine.slots; ms++) if (StateMachine.machine[ms] !== NO_MACHINE) StateMachine.appliedSpeed[ms] = NaN;
}

/**
 * Throws the `setTargetSpeed` error for a speed the blend of `eid` (travelling `travel` m/s at
 * rate 1) reaches only above MAX_PLAYBACK_RATE, naming the speed, the clips, their travel and
 * the rate it would take.
 */
function refuseFast(world: AnimationWorld, eid: number, metersPerSecond: number, travel: number, rate: number): never {
  const { Layers } = world.components;
  const names: string[] = [];
  for (let li = eid * Layers.maxLayers; li < (eid + 1) * Layers.maxLayers; li++) {
    if (movesRoot(Layers, li)) names.push(`"${world.assets.clips[Layers.clip[li]].name}"`);
  }
  const one = names.length === 1;
  const subject = one ? `clip ${names[0]}` : `the blend of ${names.join(', ')}`;
  fail('setTargetSpeed', 'metersPerSecond', `is ${shownNumber(metersPerSecond)} m/s, but ${subject} travels ${shownNumber(travel)} m/s at rate 1 on this character, `
    + `so it would play at ${shownNumber(rate)}×, above the fastest playback rate MAX_PLAYBACK_RATE = ${MAX_PLAYBACK_RATE}×: `
    + `ask for at most ${shownNumber(travel * MAX_PLAYBACK_RATE)} m/s, or play a clip that travels`);
}

/**
 * Throws the `setTargetSpeed` error for a blend that cannot drive a speed (just measured into
 * `TRAVEL`), as a sentence naming its weighted clips and, for `'max'`, how far it gets per
 * cycle on the character.
 */
function refuseStill(world: AnimationWorld, eid: number, measure: number): never {
  const where = 'setTargetSpeed';
  const { Layers } = world.components;
  const names: string[] = [];
  let farthest = 0, net = 0;
  for (let li = eid * Layers.maxLayers; li < (eid + 1) * Layers.maxLayers; li++) {
    if (!movesRoot(Layers, li)) continue;
    const clip = world.assets.clips[Layers.clip[li]];
    names.push(`"${clip.name}"`);
    const track = getRootTrack(clip), scale = Math.abs(Layers.rootScale[li]);
    farthest = Math.max(farthest, track.maxDistance * scale);
    net = Math.max(net, Math.hypot(track.cycle[0], track.cycle[2]) * scale);
  }
  if (names.length === 0) fail(where, 'eid', `${eid} plays no weighted clip, so no playback rate can give it a speed: play a clip that travels first`);
  const one = names.length === 1;
  const subject = one ? `clip ${names[0]}` : `clips ${names.slice(0, -1).join(', ')} and ${names[names.length - 1]} together`;
  const tail = `so no playback rate can give ${one ? 'it' : 'them'} a speed: play ${one ? 'it' : 'them'} in place`;
  if (measure === CYCLE_MAX) {
    if (!one) fail(where, subject, `travel under 1 mm per cycle (${mm(TRAVEL[1])}), ${tail}`);
    if (farthest < MIN_CYCLE_TRAVEL) fail(where, subject, `travels under 1 mm per cycle (farthest ${mm(farthest)} from its start), ${tail}`);
    if (net < MIN_CYCLE_TRAVEL) {
      fail(where, subject, `ends its cycle ${mm(net)} from where it started (under 1 mm; farthest ${mm(farthest)}), so its travel has no direction and no playback rate can give it a speed: play it in place`);
    }
    fail(where, subject, `travels under 1 mm per cycle along its axis (${mm(TRAVEL[1])}), ${tail}`);
  }
  fail(where, subject, `${one ? 'has' : 'have'} no net travel per cycle, ${tail}`);
}

/** Least travel per cycle, as a share of the character's hip height, of a clip that drives a speed: 5 % (see systems/switching/targetSpeed.ts). */
export const MIN_CYCLE_TRAVEL_SHARE = TRAVEL_SHARE;

/**
 * Refuses a blend whose weighted clips all travel less than {@link MIN_CYCLE_TRAVEL_SHARE} of
 * the character's hip height ({@link standingHeight}) per cycle (measured as `measure` says,
 * on the character: × the layer's `rootScale`): an in-place clip with drift, not a gait. No
 * hip joint: no check.
 */
function refuseDrift(world: AnimationWorld, eid: number, measure: number, skeleton: Skeleton): void {
  // Doubles stay in locals and typed arrays (no argument, no return, no Math.hypot): the
  // accepted path allocates nothing.
  const hipHeight = standingHeight(skeleton)[0];
  if (!(hipHeight > 0)) return;
  const bound = MIN_CYCLE_TRAVEL_SHARE * hipHeight;
  const { Layers } = world.components;
  let farthest = 0;
  for (let li = eid * Layers.maxLayers; li < (eid + 1) * Layers.maxLayers; li++) {
    if (!movesRoot(Layers, li)) continue;
    const track = getRootTrack(world.assets.clips[Layers.clip[li]]);
    const x = track.cycle[0], z = track.cycle[2];
    const perCycle = (measure === CYCLE_MAX ? track.maxDistance : Math.sqrt(x * x + z * z)) * Math.abs(Layers.rootScale[li]);
    if (perCycle >= bound) return;
    farthest = Math.max(farthest, perCycle);
  }
  const names: string[] = [];
  for (let li = eid * Layers.maxLayers; li < (eid + 1) * Layers.maxLayers; li++) {
    if (movesRoot(Layers, li)) names.push(`"${world.assets.clips[Layers.clip[li]].name}"`);
  }
  failDrift('setTargetSpeed', names, farthest, bound, hipHeight, 'a target speed would play', 'without a target speed');
}

/**
 * Throws the drift refusal at `where` (see {@link refuseDrift}): the clips, their travel per
 * cycle, the bound and the fix. `would` says what would play them too fast, `otherwise` how to
 * play them instead.
 */
function failDrift(where: string, names: readonly string[], farthest: number, bound: number, hipHeight: number, would: string, otherwise: string, context = ''): never {
  const one = names.length === 1;
  const subject = one ? `clip ${names[0]}` : `clips ${names.slice(0, -1).join(', ')} and ${names[names.length - 1]} together`;
  fail(where, subject, `${context}${one ? 'travels' : 'travel'} ${mm(farthest)} per cycle on this character, under ${MIN_CYCLE_TRAVEL_SHARE * 100} % of its hip height `
    + `(${mm(bound)} of ${shownNumber(hipHeight)} m): ${one ? 'it is an in-place clip' : 'they are in-place clips'} whose root drifts, and ${would} `
    + `${one ? 'it' : 'them'} far too fast with the feet sliding. Give ${one ? 'it' : 'each'} the travel of ${one ? 'its' : 'their'} planted feet with `
    + `rootMotionFromFeet(clip, { feet }) (docs/in-place-clips.md), or play ${one ? 'it' : 'them'} ${otherwise}`);
}

/**
 * A clip's travel per cycle on a character of `skeleton`, metres, as a blend space plays it
 * (hip-height ratio when `hipScaling`; axis restriction and stride scales left out: they change
 * it by a factor near 1, and the bound is 10–20× from both gaits and drift), measured as
 * `measure` says; and whether it is a drift (it drives a speed, as `applyTargetSpeed` sees it,
 * yet lies under the bound).
 */
function spaceClipTravel(clip: Clip, skeleton: Skeleton, measure: number, hipScaling: boolean): number {
  const track = getRootTrack(clip);
  const hip = hipScaling && skeleton.hipHeight > 0 && track.hipHeight > 0 ? skeleton.hipHeight / track.hipHeight : 1;
  const x = track.cycle[0], z = track.cycle[2];
  return (measure === CYCLE_MAX ? track.maxDistance : Math.sqrt(x * x + z * z)) * hip;
}

/** Whether travelling `perCycle` metres per cycle of `duration` s drives a speed (as `travels` judges a blend) under the drift `bound`. */
function drifts(perCycle: number, duration: number, measure: number, bound: number): boolean {
  if (perCycle >= bound || !(duration > 0)) return false;
  return perCycle / duration > NO_TRAVEL && (measure !== CYCLE_MAX || perCycle >= MIN_CYCLE_TRAVEL);
}

/** Per blend space, the weights of one query (allocated once per space). */
const SPACE_WEIGHTS = new WeakMap<BlendSpace, Float64Array>();

/**
 * `setBlendSpace`'s check for a character with a remembered target speed (see
 * {@link setTargetSpeed}): refuses the point `point` of `space` when a weighted clip drifts:
 * it travels under {@link MIN_CYCLE_TRAVEL_SHARE} of the hip height per cycle, yet enough to
 * drive a speed, so the speed would be re-derived from the drift (alone, or through the stride
 * scales that fit the other clips' travel to it). A clip exactly in place is no drift. Nothing
 * is changed; no allocation when accepted (after the space's first query).
 */
export function refuseDriftingPoint(world: AnimationWorld, eid: number, skeleton: Skeleton, space: BlendSpace, point: Float64Array, hipScaling: boolean): void {
  const speed = world.components.RootMotion.targetSpeed[eid];
  if (!(speed >= 0)) return;
  const hipHeight = standingHeight(skeleton)[0];
  if (!(hipHeight > 0)) return;
  const bound = MIN_CYCLE_TRAVEL_SHARE * hipHeight;
  const measure = world.components.RootMotion.cycleMeasure[eid];
  let weights = SPACE_WEIGHTS.get(space);
  if (weights === undefined) SPACE_WEIGHTS.set(space, (weights = new Float64Array(space.clips.length)));
  blendSpaceWeightsAt(space, point, weights);
  let drifting = 0, farthest = 0;
  for (let i = 0; i < weights.length; i++) {
    if (!(weights[i] > 0)) continue;
    const clip = space.clips[i];
    const perCycle = spaceClipTravel(clip, skeleton, measure, hipScaling);
    if (!drifts(perCycle, clip.duration, measure, bound)) continue;
    drifting++;
    if (perCycle > farthest) farthest = perCycle;
  }
  if (drifting === 0) return;
  const names: string[] = [];
  for (let i = 0; i < weights.length; i++) {
    if (weights[i] > 0 && drifts(spaceClipTravel(space.clips[i], skeleton, measure, hipScaling), space.clips[i].duration, measure, bound)) names.push(`"${space.clips[i].name}"`);
  }
  failDrift('setBlendSpace', names, farthest, bound, hipHeight, `the character's target speed (${shownNumber(speed)} m/s, set by setTargetSpeed) would play`, 'in a blend space of a character without a target speed',
    `at the point (${shownNumber(point[0])}, ${shownNumber(point[1])}) of the space, `);
}

/**
 * `setTargetSpeed`'s check of the state machines character `eid` runs: a blend-space state with
 * a clip that drifts (see {@link refuseDriftingPoint}) would re-derive the speed from the drift
 * wherever that clip alone weighs. Refused, naming the machine, the state and the clip.
 */
function refuseDriftingMachines(world: AnimationWorld, eid: number, measure: number, skeleton: Skeleton, speed: number): void {
  const hipHeight = standingHeight(skeleton)[0];
  if (!(hipHeight > 0)) return;
  const bound = MIN_CYCLE_TRAVEL_SHARE * hipHeight;
  const { StateMachine } = world.components;
  for (let k = 0; k < StateMachine.slots; k++) {
    const id = StateMachine.machine[eid * StateMachine.slots + k];
    if (id === NO_MACHINE) continue;
    const machine = world.assets.machines[id]?.machine;
    if (!machine) continue;
    for (let s = 0; s < machine.stateSpaces.length; s++) {
      const space = machine.stateSpaces[s];
      if (space === null) continue;
      for (let c = 0; c < space.clips.length; c++) {
        const clip = space.clips[c];
        const perCycle = spaceClipTravel(clip, skeleton, measure, true);
        if (!drifts(perCycle, clip.duration, measure, bound)) continue;
        failDrift('setTargetSpeed', [`"${clip.name}"`], perCycle, bound, hipHeight, `a target speed of ${shownNumber(speed)} m/s would play`,
          'without a target speed (the machine\'s own rate)', `in state "${machine.stateNames[s]}" of state machine "${machine.name}", blended where it alone weighs, `);
      }
    }
  }
}

/** Metres as millimetres for a message, 3 significant digits. */
function mm(metres: number): string {
  return `${Number((metres * 1000).toPrecision(3))} mm`;
}

const NO_OPTIONS: TargetSpeedOptions = {};

/** Fields of {@link setRootTransform}; each one given replaces the character's, the others stay. */
export interface RootTransformUpdate {
  /** World position x, metres. */
  x?: number;
  /** World position y (up), metres. */
  y?: number;
  /** World position z, metres. */
  z?: number;
  /** Heading about +Y, radians (0 faces +Z; +π/2 faces +X). */
  yaw?: number;
}

const WHERE = 'setRootTransform';

/**
 * Places or steers character `eid`: sets its world position and heading (`RootMotion.x/y/z/yaw`,
 * what `spawnCharacter` set first and `getRootTransform` reports). Omitted fields keep their
 * values, so `{ yaw }` steers a walking character without touching where root motion has
 * taken it, and `{ x, z }` teleports one without turning it.
 *
 * With root motion the character goes on from the new transform: the next frames' root deltas
 * are turned by the new heading and added to the new position (with `rootYaw` the clips' turns
 * keep adding to the heading set here), and its hips are drawn at the new x, z (root motion
 * holds them at the model origin horizontally, whatever their rest offset). Without root
 * motion the character simply stands there. The jump is not motion: `RootMotion.delta` (the last frame's root-motion displacement) is
 * left as it is, and nothing of the pose changes. Allocation-free, so a game can steer every
 * character every frame.
 *
 * Under update-rate LOD a character that skips frames moves on its next update by the seconds
 * it gathered: that travel is turned by the heading it has then, so a `yaw` set between
 * updates also turns the travel of the skipped frames (at most `updateEvery − 1` frames of it).
 *
 * @example
 * // Steer a walker toward a point.
 * const { x, z } = getRootTransform(world, eid);
 * setRootTransform(world, eid, { yaw: Math.atan2(goalX - x, goalZ - z) });
 * @throws AnimationError naming the field when one is given but is not a finite number within
 * the Float32 range (|v| ≤ 3.4e38), or when `eid` is not a character of this world. Nothing
 * changes then.
 */
export function setRootTransform(world: AnimationWorld, eid: number, transform: RootTransformUpdate): void {
  requireCharacter(world, eid, WHERE);
  if (typeof transform !== 'object' || transform === null) fail(WHERE, 'transform', `is ${shownString(transform)}: must be an object { x?, y?, z?, yaw? }`);
  const { x, y, z, yaw } = transform;
  check(x, 'x');
  check(y, 'y');
  check(z, 'z');
  check(yaw, 'yaw');
  const root = world.components.RootMotion;
  if (x !== undefined) root.x[eid] = x;
  if (y !== undefined) root.y[eid] = y;
  if (z !== undefined) root.z[eid] = z;
  if (yaw !== undefined) root.yaw[eid] = yaw;
}

function check(value: unknown, field: string): void {
  if (value === undefined) return;
  if (!isFiniteNumber(value)) fail(WHERE, field, `is ${shownValue(value)}: must be a finite number`);
  if (Math.abs(value) > FLOAT32_MAX) fail(WHERE, field, `is ${value}: must lie within the Float32 range, |${field}| ≤ 3.4e38`);
}
