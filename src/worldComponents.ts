/**
 * The components of an animation world (`world.components`): which bitecs components a
 * character carries, who adds and removes them. Their layouts live in src/components/.
 */
import type { CharacterComponent } from './components/Character.js';
import type { CurvesComponent } from './components/Curves.js';
import type { FollowerComponent } from './components/Follower.js';
import type { FootLockComponent } from './components/FootLock.js';
import type { InertializationComponent } from './components/Inertialization.js';
import type { LayersComponent } from './components/Layers.js';
import type { LodComponent } from './components/Lod.js';
import type { LookAtComponent } from './components/LookAt.js';
import type { PoolComponent } from './components/Pose.js';
import type { ReachComponent } from './components/Reach.js';
import type { RootMotionComponent } from './components/RootMotion.js';
import type { StateMachineComponent } from './components/StateMachine.js';

/**
 * The animation components of a world; every array is sized at creation. Each is also a
 * bitecs component of `world.ecs` (registered at creation), on exactly the entities that have
 * its state, so a game can `query(world.ecs, [world.components.Follower])`, `hasComponent`,
 * or `observe(world.ecs, onAdd(…), …)` with it:
 *
 * | component | on an entity | added by | removed by |
 * | --- | --- | --- | --- |
 * | `Character`, `Layers`, `LocalPose`, `ModelPose`, `SkinPalette`, `Inertialization` | every character | `spawnCharacter` | `removeCharacter` |
 * | `RootMotion` | moved by root motion | `spawnCharacter(…, { rootMotion: true })` | `removeCharacter` |
 * | `Follower` | with a follower in any slot | `setFollower`, `setFollowTarget`, `setLookAt`, `setReach` | `removeFollower` (its last slot), `removeCharacter` |
 * | `LookAt` | looking at a follower | `setLookAt` | `clearLookAt`, `removeCharacter` |
 * | `Reach` | reaching for a follower | `setReach` | `clearReach`, `removeCharacter` |
 * | `FootLock` | holding planted feet | `setFootLock` | `clearFootLock`, `removeCharacter` |
 * | `Lod` | with motion LOD | `setLod` | `removeLod`, `removeCharacter` |
 * | `StateMachine` | running a state machine | `setStateMachine` | `removeCharacter` |
 * | `Curves` | with float curves (its skeleton's `curves`) | `spawnCharacter` | `removeCharacter` |
 *
 * The arrays hold a row for every entity id (defaults where a character lacks the component:
 * `RootMotion.x/y/z/yaw` is the position of every character; a removed entity's rows keep
 * their values until `spawnCharacter` resets them, `resetRows`). Systems visit `characters` and
 * read the `enabled` flags, which agree with the bitecs membership (see docs/ecs-components.md).
 */
export interface AnimationComponents {
  /** Every character: its skeleton id and joint count. */
  readonly Character: CharacterComponent;
  /** Every character: its clip slots (clip, time, speed, weight, fades, sampled poses). */
  readonly Layers: LayersComponent;
  /** Every character: the blended local pose, 10 floats per joint. */
  readonly LocalPose: PoolComponent;
  /** Every character: model-space matrices, 12 floats per joint (3×4, column-major). */
  readonly ModelPose: PoolComponent;
  /** Every character: skinning matrices `model × inverseBind`, 12 floats per joint. */
  readonly SkinPalette: PoolComponent;
  /** Every character: transition state (its per-joint poses and offsets in the pool of transition slots). */
  readonly Inertialization: InertializationComponent;
  /** World transform of every character; the bitecs component marks those root motion moves (`enabled`). */
  readonly RootMotion: RootMotionComponent;
  /** Minimum-jerk followers: on the entities with a follower in some slot (`enabled[eid × FOLLOW_SLOTS + slot]`). */
  readonly Follower: FollowerComponent;
  /** Look-at toward a follower: on the entities that look at one (`enabled`). */
  readonly LookAt: LookAtComponent;
  /** Two-bone reach toward a follower: on the entities that reach for one (`enabled`). */
  readonly Reach: ReachComponent;
  /** Planted feet held by two-bone IK on the legs: on the entities whose feet lock (`enabled`). */
  readonly FootLock: FootLockComponent;
  /** Motion LOD and update-rate LOD: on the entities with LOD (`enabled` is `LOD_ON`). */
  readonly Lod: LodComponent;
  /** State machines: on the entities that run one (`enabled` > 0). */
  readonly StateMachine: StateMachineComponent;
  /** Blended float curves: on the characters whose skeleton has curves (`count` > 0). */
  readonly Curves: CurvesComponent;
}
