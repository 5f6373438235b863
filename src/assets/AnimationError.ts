/** One thing wrong with an input: where (`path`, e.g. `frames[12].joint "LeftKnee".qw`) and what. */
export interface AnimationIssue {
  /** Where the fault is: the field, with joint, frame or byte offset where they apply. */
  readonly path: string;
  /** What is wrong, in a sentence fragment ("is NaN", "must be > 0"). */
  readonly message: string;
}

/** At most this many issues are listed in an error's message (all are kept in `issues`). */
const LISTED_ISSUES = 8;

/**
 * The one error bitanim throws: bad input stopped at the API boundary. The message names the
 * call and every fault found (field, joint, frame); `issues` holds them for tools. When a call
 * throws it, nothing already in the world has changed.
 */
export class AnimationError extends Error {
  /** Always `'AnimationError'` (what `error.name` and the message's prefix show). */
  override readonly name = 'AnimationError';
  /** The call that refused its input, e.g. `createClip`. */
  readonly where: string;
  /** Every fault found, in input order. */
  readonly issues: readonly AnimationIssue[];

  constructor(where: string, issues: readonly AnimationIssue[]) {
    const listed = issues.slice(0, LISTED_ISSUES).map((i) => `${i.path} ${i.message}`);
    const more = issues.length > LISTED_ISSUES ? `; and ${issues.length - LISTED_ISSUES} more` : '';
    super(`${where}: ${listed.join('; ')}${more}`);
    this.where = where;
    this.issues = issues;
  }
}

/**
 * Collects the faults of one input, then throws them together. Validators keep going after the
 * first fault so a user fixes a file in one pass, but stop collecting at `limit` so a broken
 * 100 MB clip does not build a million messages.
 */
export class IssueList {
  readonly issues: AnimationIssue[] = [];
  constructor(
    readonly where: string,
    readonly limit = 64,
  ) {}

  /** Records a fault; returns false once the list is full so loops can stop early. */
  add(path: string, message: string): boolean {
    if (this.issues.length < this.limit) this.issues.push({ path, message });
    return this.issues.length < this.limit;
  }

  get full(): boolean {
    return this.issues.length >= this.limit;
  }

  /**
   * Empties the list, so a call made every frame can reuse one list (no garbage). An error
   * already thrown keeps its own copy of the issues.
   */
  reset(): this {
    this.issues.length = 0;
    return this;
  }

  /** Throws an `AnimationError` if any fault was recorded (with a copy of them, see {@link IssueList.reset}). */
  throwIfAny(): void {
    if (this.issues.length > 0) throw new AnimationError(this.where, this.issues.slice());
  }
}

/** Throws an `AnimationError` for a single fault. */
export function fail(where: string, path: string, message: string): never {
  throw new AnimationError(where, [{ path, message }]);
}
