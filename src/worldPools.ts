/**
 * A world's pools: the components, the scratch, the event queue, the update list and, for a
 * threaded world, its per-thread pools — each made from the world's {@link Capacity} on one
 * allocator (measured first, then allocated on one buffer: buildWorld.ts) — and how an
 * entity's rows are reset and viewed.
 */
import { characterRows, createCharacterComponent } from './components/Character.js';
import { createCurvesComponent, curvesRows } from './components/Curves.js';
import { createEventQueue, type EventQueue } from './components/EventQueue.js';
import { createFollowerComponent, followerRows } from './components/Follower.js';
import { createFootLockComponent, footLockRows } from './components/FootLock.js';
import { createInertializationComponent, inertializationRows } from './components/Inertialization.js';
import { createLayersComponent, layersRows } from './components/Layers.js';
import type { RowLifecycle } from './components/lifecycle.js';
import { createLodComponent, createLodShared, lodRows, type LodShared } from './components/Lod.js';
import { createLookAtComponent, lookAtRows } from './components/LookAt.js';
import { createLocalPoseComponent, createMatrixPoolComponent, poseRows } from './components/Pose.js';
import { createReachComponent, reachRows } from './components/Reach.js';
import { createRootMotionComponent, rootMotionRows } from './components/RootMotion.js';
import { createStateMachineComponent, stateMachineRows } from './components/StateMachine.js';
import { CHUNK_LOG_STRIDE, CLOCK_SIZE, CONTROL_INTS, FAILURE_TEXT, STATUS_STRIDE } from './components/ThreadControl.js';
import { createUpdateList, type UpdateList } from './components/UpdateList.js';
import { POSE_STRIDE } from './math/layout.js';
import type { PoolAllocator } from './memory/poolAllocator.js';
import { createKernelAreaHeader, type KernelAreaHeader } from './wasm/areaLayout.js';
import type { Capacity } from './worldCapacity.js';
import { FRAME_CHUNK, type AnimationComponents, type AnimationWorld, type Frame, type Scratch, type ThreadPools } from './world.js';

/** What a world allocates on its pool buffer. */
export interface WorldPools {
  readonly components: AnimationComponents;
  readonly events: EventQueue;
  readonly scratch: Scratch;
  readonly updates: UpdateList;
  readonly lod: LodShared;
  readonly parallel: ThreadPools | null;
  /** The header of the kernel area (src/wasm/areaLayout.ts; its heap follows the pools), after the other pools; null on the JavaScript kernels. */
  readonly kernelArea: KernelAreaHeader | null;
}

/** Every pool of a world of `capacity` running `frame`, from `alloc`, with a kernel area when `wasm`. */
export function createWorldPools(frame: Frame, capacity: Capacity, alloc: PoolAllocator, wasm: boolean): WorldPools {
  const scratch = createScratch(frame, capacity, alloc);
  return {
    components: createComponents(capacity, alloc),
    events: createEventQueue(capacity.maxEvents, alloc),
    scratch,
    updates: createUpdateList(capacity.rows, alloc),
    lod: createLodShared(alloc),
    parallel: capacity.threads > 1 ? createThreadPools(frame, capacity, alloc) : null,
    kernelArea: wasm ? createKernelAreaHeader(alloc) : null,
  };
}

/** The pools a threaded world adds (see {@link ThreadPools}). */
function createThreadPools(frame: Frame, capacity: Capacity, alloc: PoolAllocator): ThreadPools {
  const { rows, threads } = capacity;
  const chunks = Math.ceil(rows / FRAME_CHUNK);
  return {
    control: alloc.array(Int32Array, CONTROL_INTS),
    clock: alloc.array(Float64Array, CLOCK_SIZE),
    dense: alloc.array(Int32Array, rows),
    chunkLog: alloc.array(Float64Array, chunks * CHUNK_LOG_STRIDE),
    status: alloc.array(Float64Array, threads * STATUS_STRIDE),
    failure: alloc.array(Uint16Array, FAILURE_TEXT),
    timing: alloc.array(Float64Array, threads),
    queues: Array.from({ length: threads }, () => createEventQueue(capacity.maxEvents, alloc)),
    scratch: Array.from({ length: threads - 1 }, () => createScratch(frame, capacity, alloc)),
  };
}

/** The components of a world of `capacity` (DESIGN §3). */
export function createComponents(capacity: Capacity, alloc: PoolAllocator): AnimationComponents {
  const { rows, maxJoints, maxTransitions, maxLayers, maxCurves, maxMachines } = capacity;
  return {
    Character: createCharacterComponent(rows, alloc),
    Layers: createLayersComponent(rows, alloc, maxLayers),
    LocalPose: createLocalPoseComponent(rows, maxJoints, alloc),
    ModelPose: createMatrixPoolComponent(capacity.modelPose ? rows : 0, maxJoints, alloc), // empty in a palette-only world
    SkinPalette: createMatrixPoolComponent(rows, maxJoints, alloc),
    Inertialization: createInertializationComponent(rows, maxJoints, alloc, maxTransitions),
    RootMotion: createRootMotionComponent(rows, alloc),
    Follower: createFollowerComponent(rows, alloc),
    LookAt: createLookAtComponent(rows, alloc),
    Reach: createReachComponent(rows, alloc),
    FootLock: createFootLockComponent(rows, alloc),
    Lod: createLodComponent(rows, alloc),
    StateMachine: createStateMachineComponent(rows, alloc, maxMachines),
    Curves: createCurvesComponent(rows, alloc, maxCurves, maxTransitions),
  };
}

/**
 * The scratch of a world running `frame`: `blendThreshold`, then each system's declared
 * buffers in frame order (a name already built — declared by an earlier system — is shared),
 * for the capacity's `maxJoints` joints and `maxLayers` layer slots per character.
 */
export function createScratch(frame: Frame, capacity: Capacity, alloc: PoolAllocator): Scratch {
  const scratch: Record<string, object> = { blendThreshold: Float64Array.of(capacity.blendThreshold) };
  for (const system of frame.systems) {
    const declared = system.scratch;
    if (declared === undefined) continue;
    for (const name of Object.keys(declared)) {
      if (!(name in scratch)) scratch[name] = declared[name](capacity.maxJoints, alloc, capacity.maxLayers);
    }
  }
  return scratch as unknown as Scratch;
}

/**
 * How each component's row of an entity is reset (declared by its file; see
 * components/lifecycle.ts). Typed by `AnimationComponents`, so a component added there
 * without its lifecycle here does not compile.
 */
export const COMPONENT_ROWS: { readonly [K in keyof AnimationComponents]: RowLifecycle<AnimationComponents[K]> } = {
  Character: characterRows,
  Layers: layersRows,
  LocalPose: poseRows,
  ModelPose: poseRows,
  SkinPalette: poseRows,
  Inertialization: inertializationRows,
  RootMotion: rootMotionRows,
  Follower: followerRows,
  LookAt: lookAtRows,
  Reach: reachRows,
  FootLock: footLockRows,
  Lod: lodRows,
  StateMachine: stateMachineRows,
  Curves: curvesRows,
};

const COMPONENT_NAMES = Object.keys(COMPONENT_ROWS) as (keyof AnimationComponents)[];

/**
 * Resets entity `eid`'s row of every component to what a never-used id holds (each
 * component's `RowLifecycle.reset`). `spawnCharacter` calls it first, whatever the id held
 * before and however its last owner was removed; it is the only reset of a reused id.
 */
export function resetRows(world: AnimationWorld, eid: number): void {
  for (const name of COMPONENT_NAMES) resetRow(world.components, name, eid, world.maxJoints);
}

function resetRow<K extends keyof AnimationComponents>(components: AnimationComponents, name: K, eid: number, maxJoints: number): void {
  COMPONENT_ROWS[name].reset(components[name], eid, maxJoints);
}

/**
 * Makes `world.views` of `eid`'s pose blocks, `jointCount` joints long (see `PoseViews`): at
 * spawn, and in a worker of a threaded world for a character it has not seen at that size.
 */
export function makePoseViews(world: AnimationWorld, eid: number, jointCount: number): void {
  const size = jointCount * POSE_STRIDE;
  const block = world.maxJoints * POSE_STRIDE;
  const { local } = world.views;
  local[eid] = world.components.LocalPose.data.subarray(eid * block, eid * block + size);
}
