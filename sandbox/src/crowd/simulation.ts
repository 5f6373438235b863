/**
 * The crowd's game side: one bitanim world of characters and what steers them — spawning
 * (wanderers with root motion, or the bench's grid), the wanderers' decisions and steering
 * (heading and speed), the lure their followers chase, and the look-at and motion-LOD settings
 * applied to every character. Rendering is elsewhere.
 *
 * A wanderer's animation is state machines' (machines.ts): the game sets their parameters
 * (`speed`, `rate`) every frame and fires their triggers now and then; the locomotion machine
 * switches between idle and the walk/run blend space, and every tenth Robot's wave machine
 * raises its arm above the legs through a mask.
 */
import {
  clearFootLock,
  clearLookAt,
  createAnimationWorld,
  disposeAnimationWorld,
  fireTrigger,
  getState,
  play,
  registerLodLevels,
  removeCharacter,
  removeLod,
  setFollower,
  setFollowTarget,
  setFootLock,
  setLod,
  setLookAt,
  setParameter,
  setRootTransform,
  setStateMachine,
  spawnCharacter,
  type AnimationWorld,
  type Clip,
  type Skeleton,
} from 'bitanim';
import { quat, POSE_STRIDE } from 'bitanim/kernels';
import { bakeLod } from 'bitanim/lod';
import { feetOf, type CharacterAsset, type CharacterFeet } from '../assets';
import { BENCH_WEIGHTS, benchPlan, createRandom } from '../benchRig';
import {
  LOD_RINGS, LOD_TOLERANCES, LOD_UPDATE_EVERY, LOOK_PITCH_LIMIT, LOOK_YAW_LIMIT,
  type CrowdSettings, type Workload,
} from './settings';
import { crowdMachines, UPPER_LAYER, WAVE_EVERY, type CrowdMachines } from './machines';

/** Per-character game state, indexed by slot (0 … count − 1). */
export interface Agents {
  eid: Int32Array;
  moving: Uint8Array;
  heading: Float64Array;
  goalHeading: Float64Array;
  speed: Float64Array;
  goalSpeed: Float64Array;
  decideAt: Float64Array;
  /** 1 when the character runs the upper-body machine too. */
  upper: Uint8Array;
  /** Sim time of the upper-body machine's next trigger. */
  upperAt: Float64Array;
  tint: Float32Array;
}

function createAgents(capacity: number): Agents {
  return {
    eid: new Int32Array(capacity),
    moving: new Uint8Array(capacity),
    heading: new Float64Array(capacity),
    goalHeading: new Float64Array(capacity),
    speed: new Float64Array(capacity),
    goalSpeed: new Float64Array(capacity),
    decideAt: new Float64Array(capacity),
    upper: new Uint8Array(capacity),
    upperAt: new Float64Array(capacity),
    tint: new Float32Array(capacity * 3),
  };
}

/** Capacity of a world for `n` characters: whole blocks of 2,048 rows (entity 0 unused). */
export function capacityFor(n: number): number {
  return Math.ceil((n + 1) / 2048) * 2048 - 1;
}

export class CrowdSim {
  world!: AnimationWorld;
  agents!: Agents;
  capacity = 0;
  /** Characters alive, in slots 0 … count − 1. */
  count = 0;
  /** Largest entity id alive (the palette rows to upload). */
  maxEid = 0;
  /** The wanderers' arena radius, metres. */
  arena = 10;
  simTime = 0;
  frameIndex = 0;
  /** The point the followers chase. */
  readonly lure = { x: 0, y: 0.6, z: 0 };
  /** Level boundaries, metres from the view's centre (LOD_RINGS × the view's half height when LOD was applied). */
  lodDistances: number[] = [];
  /** The head joint's forward axis in its own space (what `setLookAt` aims by default), for the overlay's check. */
  headAxis: Float64Array = new Float64Array(3);
  /** The wanderers' state machines (this world's asset and transition mode), or null (the bench workload). */
  machines: CrowdMachines | null = null;
  private random = createRandom(7);
  private plan: { startTime: Float64Array; speed: Float64Array } | undefined;
  /** Reduced levels per clip (`bakeLod`), kept across worlds: baking is offline work (≈0.5 s for the Fox's three clips). */
  private readonly bakedLevels = new Map<Clip, Clip[]>();
  /** Whether this world has the played clips' levels registered. */
  private lodRegistered = false;
  private readonly steer = { yaw: 0 };
  /** The asset's legs for foot locking (found on first use per world; null: none). */
  private footLegs: CharacterFeet | null | undefined;

  /** The character (set before the first `rebuild`). */
  asset!: CharacterAsset;

  constructor(private readonly settings: CrowdSettings) {}

  /** The workload actually run: a character without locomotion clips runs the bench. */
  workload(): Workload {
    return this.asset.locomotion ? this.settings.workload : 'bench';
  }

  /**
   * A new, empty world of `capacity` characters for the current asset, on `settings.threads`
   * threads; the old world is disposed (its workers end). Never while a `stepParallel` runs.
   */
  rebuild(capacity: number): void {
    const asset = this.asset;
    this.plan = undefined;
    this.capacity = capacity;
    const rows = capacity + 1;
    if (this.world) disposeAnimationWorld(this.world);
    // A transition slot per character: the whole crowd may start walking in the same frame.
    this.world = createAnimationWorld({
      maxEntities: rows - 1, maxJoints: asset.skeleton.jointCount, maxEvents: 64, maxTransitions: rows - 1, threads: this.settings.threads, kernels: this.settings.kernels,
    });
    this.agents = createAgents(capacity);
    this.count = 0;
    this.maxEid = 0;
    this.simTime = 0;
    this.random = createRandom(7);
    this.machines = this.workload() === 'locomotion' ? crowdMachines(asset, this.settings.transitions) : null;
    this.lodRegistered = false;
    this.footLegs = undefined;
    if (asset.headJoint >= 0) this.headAxis = restForwardAxis(asset.skeleton, asset.headJoint);
  }

  /** The wanderers' arena radius for `n` characters. */
  arenaRadius(n: number): number {
    const spacing = this.asset.kind === 'fox' ? 2.2 : this.asset.kind === 'robot' ? 3.2 : 2.6;
    return Math.max(6, Math.sqrt((n * spacing) / Math.PI));
  }

  /** Removes the last characters or spawns new ones until there are `n`. */
  resize(n: number): void {
    while (this.count > n) {
      this.count--;
      removeCharacter(this.world, this.agents.eid[this.count]!);
    }
    while (this.count < n) this.spawn();
    this.maxEid = 0;
    for (let i = 0; i < this.count; i++) this.maxEid = Math.max(this.maxEid, this.agents.eid[i]!);
  }

  /** Steers every wanderer for a frame of `dt` seconds and moves the lure. */
  update(dt: number): void {
    for (let i = 0; i < this.count; i++) this.updateAgent(i, dt);
    this.moveLure();
  }

  /** After the runtime's frame: the clocks of the game. */
  endFrame(dt: number): void {
    this.simTime += dt;
    this.frameIndex++;
  }

  /**
   * Applies the foot-lock setting to every wandering character: `setFootLock` with the asset's
   * legs (its locomotion clips carry their contacts), or `clearFootLock`. The bench workload and
   * a character without feet are left alone.
   */
  applyFootLock(): void {
    const feet = this.feet();
    if (feet === null) return;
    for (let i = 0; i < this.count; i++) this.footLock(this.agents.eid[i]!, feet);
  }

  /** The legs foot locking holds, or null (the bench workload, a character without feet). */
  private feet(): CharacterFeet | null {
    if (this.workload() !== 'locomotion') return null;
    if (this.footLegs === undefined) this.footLegs = feetOf(this.asset);
    return this.footLegs;
  }

  private footLock(eid: number, feet: CharacterFeet): void {
    if (this.settings.footLock) setFootLock(this.world, eid, { legs: feet.legs });
    else clearFootLock(this.world, eid);
  }

  /** How many wanderers lock their feet now (the `FootLock` component enabled), for the overlay and the e2e test. */
  footLockCount(): number {
    const enabled = this.world.components.FootLock.enabled;
    let n = 0;
    for (let i = 0; i < this.count; i++) if (enabled[this.agents.eid[i]!] === 1) n++;
    return n;
  }

  /** Applies the look-at setting to every wandering character. */
  applyLookAt(): void {
    if (this.workload() !== 'locomotion') return;
    for (let i = 0; i < this.count; i++) {
      if (this.settings.lookAt) this.lookAt(this.agents.eid[i]!);
      else clearLookAt(this.world, this.agents.eid[i]!);
    }
  }

  /**
   * Applies the LOD setting to every character: with it, the played clips' levels are baked
   * (once per clip) and registered (once per world), and each character gets distance LOD
   * with rings scaled to the view's `halfHeight`; without it, `removeLod` (pending time is flushed).
   */
  applyLod(halfHeight: number): void {
    const { world, agents } = this;
    if (this.settings.lod) {
      if (!this.lodRegistered) {
        for (const clip of this.lodClips()) {
          let levels = this.bakedLevels.get(clip);
          if (!levels) this.bakedLevels.set(clip, (levels = bakeLod(clip, LOD_TOLERANCES)));
          registerLodLevels(world, clip, levels);
        }
        this.lodRegistered = true;
      }
      this.lodDistances = LOD_RINGS.map((k) => Number((k * halfHeight).toFixed(1)));
      const options = { levels: LOD_TOLERANCES.length, distances: this.lodDistances, updateEvery: LOD_UPDATE_EVERY };
      for (let i = 0; i < this.count; i++) setLod(world, agents.eid[i]!, options);
    } else {
      for (let i = 0; i < this.count; i++) removeLod(world, agents.eid[i]!);
    }
  }

  /** The two clips of the bench workload: the rig's cycles, or the character's walk and run in place. */
  private benchClips(): Clip[] {
    const asset = this.asset;
    const names = asset.kind === 'fox' ? ['Walk', 'Run'] : asset.kind === 'robot' ? ['Walking', 'Running'] : ['cycleA', 'cycleB'];
    return names.map((name) => asset.clips.get(name)!);
  }

  /** The played clips whose reduced levels the crowd registers. */
  private lodClips(): Clip[] {
    const loco = this.asset.locomotion;
    const wave = this.machines?.upper?.machine.stateClips[0];
    return this.workload() === 'locomotion' && loco ? [loco.idle, loco.walk, loco.run, ...(wave ? [wave] : [])] : this.benchClips();
  }

  private spawn(): void {
    const { asset, agents, random } = this;
    const i = this.count;
    const r = this.arena * Math.sqrt(random()), a = random() * Math.PI * 2;
    const x = r * Math.cos(a), z = r * Math.sin(a);
    const yaw = random() * Math.PI * 2;
    const jitter = 0.85 + 0.3 * random();
    const base = asset.kind === 'fox' ? [0.92, 0.5, 0.22] : asset.kind === 'robot' ? [0.55, 0.62, 0.78] : [0.5, 0.72, 0.92];
    for (let c = 0; c < 3; c++) agents.tint[i * 3 + c] = Math.min(1, base[c]! * jitter);
    if (this.workload() === 'bench') this.spawnBench(i);
    else this.spawnWanderer(i, x, z, yaw);
    this.maxEid = Math.max(this.maxEid, agents.eid[i]!);
    this.count++;
  }

  /** Slot i of the bench: on a grid as tight as the body allows, the two clips blended. */
  private spawnBench(i: number): void {
    const { asset, world, settings } = this;
    const side = Math.ceil(Math.sqrt(Math.max(1, settings.count)));
    const cell = asset.kind === 'bench' ? 1.2 : asset.kind === 'fox' ? 1.6 : 2.2;
    const x = ((i % side) - side / 2) * cell;
    const z = (Math.floor(i / side) - side / 2) * cell;
    const eid = spawnCharacter(world, asset.skeleton, { x, z, yaw: Math.PI / 4 });
    this.agents.eid[i] = eid;
    const clips = this.benchClips();
    if (!this.plan || this.plan.speed.length < (i + 1) * 2) this.plan = benchPlan(clips, Math.max(settings.count, i + 1));
    const plan = this.plan;
    for (let layer = 0; layer < 2; layer++) {
      const k = i * 2 + layer;
      play(world, eid, clips[layer]!, { layer, weight: BENCH_WEIGHTS[layer]!, speed: plan.speed[k]!, time: plan.startTime[k]!, loop: true });
    }
  }

  /**
   * Slot i as a wanderer at (x, z) facing `yaw`, idle or walking, its machines set (every
   * WAVE_EVERY-th with the upper-body one too), following the lure, looking at its follower.
   */
  private spawnWanderer(i: number, x: number, z: number, yaw: number): void {
    const { world, agents, random, lure } = this;
    const loco = this.asset.locomotion!;
    const machines = this.machines!;
    const eid = spawnCharacter(world, this.asset.skeleton, { rootMotion: true, x, z, yaw });
    agents.eid[i] = eid;
    agents.heading[i] = agents.goalHeading[i] = yaw;
    setStateMachine(world, eid, machines.locomotion);
    // The machine starts in idle; the first frame's speed moves it on. A clip played by hand holds
    // until the machine's next switch: here, a random start in the cycle (the blend space's
    // clips enter at the phase of the walk playing in sync group 0), so the crowd is not in step.
    if (random() < 0.25) {
      agents.speed[i] = agents.goalSpeed[i] = 0;
      play(world, eid, loco.idle, { time: random() * loco.idle.duration });
    } else {
      agents.speed[i] = agents.goalSpeed[i] = loco.walkSpeed * (0.8 + random() * 1.6);
      play(world, eid, loco.walk, { layer: 0, syncGroup: 0, loop: true, time: random() * loco.walk.duration });
    }
    agents.moving[i] = agents.speed[i]! > 0 ? 1 : 0;
    agents.upper[i] = machines.upper !== null && i % WAVE_EVERY === 0 ? 1 : 0;
    if (machines.upper !== null && agents.upper[i]) {
      setStateMachine(world, eid, machines.upper.machine, { layer: UPPER_LAYER, mask: machines.upper.mask, additive: true });
      agents.upperAt[i] = random() * 3;
    }
    this.sendParameters(i);
    agents.decideAt[i] = random() * 4;
    setFollower(world, eid, { x: lure.x, y: lure.y, z: lure.z, duration: 0.3 + 0.3 * random() });
    if (this.settings.lookAt) this.lookAt(eid);
    const feet = this.settings.footLock ? this.feet() : null;
    if (feet !== null) this.footLock(eid, feet);
  }

  /** Turns `eid`'s head (and a share of its neck) toward its follower. */
  private lookAt(eid: number): void {
    const asset = this.asset;
    if (asset.headJoint < 0) return;
    setLookAt(this.world, eid, {
      joint: asset.headJoint,
      ...(asset.neckJoint >= 0 ? { neck: asset.neckJoint, neckFraction: 0.35 } : {}),
      yawLimit: LOOK_YAW_LIMIT,
      pitchLimit: LOOK_PITCH_LIMIT,
    });
  }

  /** Slot i's speed to its locomotion machine: `speed` (the blend point and what switches idle ↔ move) and `rate`. */
  private sendParameters(i: number): void {
    const { world, agents } = this;
    const eid = agents.eid[i]!;
    // In steps of 2 cm/s: the machine re-blends only when a parameter changed, not every frame of a speed-up.
    const v = Math.round(agents.speed[i]! * 50) / 50;
    setParameter(world, eid, 'speed', v);
    setParameter(world, eid, 'rate', this.machines!.rateFor(v));
  }

  /** Slot i's next goal: stop a while, or walk or run toward a new heading (back inward from outside the arena). */
  private decide(i: number): void {
    const loco = this.asset.locomotion!;
    const { agents, random, arena, simTime } = this;
    const eid = agents.eid[i]!;
    const root = this.world.components.RootMotion;
    const x = root.x[eid]!, z = root.z[eid]!;
    const roll = random();
    const outside = x * x + z * z > arena * arena;
    if (roll < 0.2 && !outside) {
      agents.goalSpeed[i] = 0;
      agents.decideAt[i] = simTime + 2 + random() * 3;
      // Half of those stopping sniff first (the trigger waits, pending, until the machine is idle).
      const trigger = this.machines!.locomotionTrigger;
      if (trigger !== null && random() < 0.5) fireTrigger(this.world, eid, trigger);
    } else {
      agents.goalSpeed[i] = roll < 0.65 ? loco.walkSpeed * (0.8 + 0.4 * random()) : loco.runSpeed * (0.8 + 0.35 * random());
      agents.decideAt[i] = simTime + 2 + random() * 4;
    }
    agents.goalHeading[i] = outside
      ? Math.atan2(-x, -z) + (random() - 0.5) * 0.8
      : agents.heading[i]! + (random() - 0.5) * 2.4;
  }

  /**
   * Slot i for a frame: decide when due, steer heading and speed, and hand the speed to the
   * machines (which switch idle ↔ move on it); fire the wave now and then.
   */
  private updateAgent(i: number, dt: number): void {
    const loco = this.asset.locomotion!;
    const { world, agents, simTime } = this;
    const eid = agents.eid[i]!;
    if (simTime >= agents.decideAt[i]!) this.decide(i);
    // Steer: turn toward the goal heading at ≤ 1.6 rad/s, change speed at ≤ 1.8 m/s².
    let dh = agents.goalHeading[i]! - agents.heading[i]!;
    dh = Math.atan2(Math.sin(dh), Math.cos(dh));
    const turn = 1.6 * dt;
    if (agents.moving[i]) agents.heading[i] = agents.heading[i]! + Math.max(-turn, Math.min(turn, dh));
    this.steer.yaw = agents.heading[i]!;
    setRootTransform(world, eid, this.steer); // one reused object: no allocation per agent
    const dv = agents.goalSpeed[i]! - agents.speed[i]!;
    const accel = 1.8 * dt;
    let v = agents.speed[i]! + Math.max(-accel, Math.min(accel, dv));
    // Stop below 60 % of walking speed, start at it: the machine switches on the way (machines.ts, START_FRACTION).
    if (agents.goalSpeed[i] === 0 && v < 0.6 * loco.walkSpeed) v = 0;
    else if (agents.speed[i] === 0 && agents.goalSpeed[i]! > 0) v = 0.6 * loco.walkSpeed;
    agents.speed[i] = v;
    agents.moving[i] = v > 0 ? 1 : 0;
    this.sendParameters(i);
    if (agents.upper[i] && simTime >= agents.upperAt[i]!) {
      fireTrigger(world, eid, this.machines!.upper!.trigger);
      agents.upperAt[i] = simTime + 2.5 + 4 * this.random();
    }
  }

  /**
   * The machines for the overlay and the e2e test: how many characters run one (and the
   * upper-body one), how many are in each locomotion state, and slot 0's `getState`.
   */
  machineStats(): { characters: number; upper: number; states: Record<string, number>; sample: ReturnType<typeof getState> | null; sampleUpper: ReturnType<typeof getState> | null } {
    const { world, agents } = this;
    const c = world.components.StateMachine;
    let characters = 0, upper = 0;
    const states: Record<string, number> = {};
    if (this.machines === null) return { characters, upper, states, sample: null, sampleUpper: null };
    for (let i = 0; i < this.count; i++) {
      const eid = agents.eid[i]!;
      if (c.enabled[eid]! > 0) characters++;
      if (c.enabled[eid]! > 1) upper++;
      const { state, next } = getState(world, eid);
      const name = next ?? state;
      states[name] = (states[name] ?? 0) + 1;
    }
    const first = this.count > 0 ? agents.eid[0]! : -1;
    return {
      characters,
      upper,
      states,
      sample: first >= 0 ? getState(world, first) : null,
      sampleUpper: first >= 0 && agents.upper[0] ? getState(world, first, UPPER_LAYER) : null,
    };
  }

  /**
   * The lure circles the arena; followers sample it (a twelfth of the crowd per frame:
   * followers only sample their target every 0.2 s anyway).
   */
  private moveLure(): void {
    const { lure, arena } = this;
    const angle = this.simTime * 0.25;
    lure.x = Math.cos(angle) * arena * 0.55 + Math.cos(angle * 3.1) * arena * 0.15;
    lure.z = Math.sin(angle) * arena * 0.55 + Math.sin(angle * 2.3) * arena * 0.15;
    lure.y = 0.6 + 0.4 * Math.sin(angle * 5);
    if (this.settings.followers) {
      for (let i = this.frameIndex % 12; i < this.count; i += 12) setFollowTarget(this.world, this.agents.eid[i]!, lure.x, lure.y, lure.z);
    }
  }
}

/** The head joint's axis that points along the model's +Z in the rest pose (as `setLookAt`'s default). */
function restForwardAxis(skeleton: Skeleton, head: number): Float64Array {
  const path: number[] = [];
  for (let j = head; j >= 0; j = skeleton.parents[j]!) path.push(j);
  const q = Float64Array.of(0, 0, 0, 1);
  for (let k = path.length - 1; k >= 0; k--) quat.multiply(q, 0, q, 0, skeleton.rest, path[k]! * POSE_STRIDE + 3);
  quat.normalize(q, 0, q, 0);
  quat.conjugate(q, 0, q, 0);
  const axis = new Float64Array(3);
  quat.rotateVec3(axis, 0, q, 0, Float64Array.of(0, 0, 1), 0);
  return axis;
}
