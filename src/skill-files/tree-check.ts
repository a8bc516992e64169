import type { Code } from '../codes.js';
import type { DirectoryEntry, SkillFileSystem } from '../deps.js';
import type { Diagnostic } from '../diagnostics.js';
import { DEFAULT_READ_LIMITS } from '../format/limits.js';
import type { YamlSource } from '../format/yaml-engine.js';
import { type CheckSkillOptions, checkSkillDirectory, type SkillCheck } from './check.js';
import { readingWalk } from './probe.js';
import { type FoundSkill, TreeWalk, type WalkOptions, type WalkVisitor } from './walker.js';

/** What is checked of each skill below a root: the check (the YAML library aside) and the walk. */
export interface TreeCheckJob {
  readonly check: Omit<CheckSkillOptions, 'yaml'>;
  readonly walk: WalkOptions;
}

/** A skill the walk found, with its verdict. */
export interface CheckedSkill {
  readonly found: FoundSkill;
  readonly check: SkillCheck;
}

/** The root's folders, cut into shares that two threads claim one at a time. */
export interface SharedTreeJob extends TreeCheckJob {
  readonly root: string;
  readonly realRoot: string;
  /** The root's child folders in walk order. */
  readonly children: readonly DirectoryEntry[];
  readonly shareSize: number;
}

/** One share of the root's folders, walked and checked as a walk of its own would. */
export interface WalkShare {
  readonly index: number;
  readonly skills: readonly CheckedSkill[];
  readonly diagnostics: readonly Diagnostic[];
  /** Folders searched (skill directories are not). */
  readonly directories: number;
  /** Codes this share reported once (a walk reports them only the first time). */
  readonly reported: readonly Code[];
  /** A limit stopped the share's own walk. */
  readonly stopped: boolean;
}

/**
 * Another thread that walks shares of the same root (skillhost/node: a worker). Both threads
 * claim shares from one count; the verdicts are put back in the walk's order by the caller.
 */
export interface TreeCheckHelper {
  /** How many of the root's folders make a share (default `SHARE_SIZE`). */
  readonly shareSize?: number;
  /** Starts on a job; undefined when no thread can help (too few folders to be worth one). */
  start(job: SharedTreeJob): HelperShares | undefined;
}

export interface HelperShares {
  /** Claims the next share for this thread; a number past the last share means none is left. */
  claim(): number;
  /**
   * A share the helper has finished, or undefined. With `wait`, waits for one (within the
   * helper's time limit); undefined then means the helper will send no more.
   */
  take(wait: boolean): WalkShare | undefined;
  /** Lets the helper go: it claims nothing more. */
  close(): void;
}

/**
 * Where the verdicts and findings go, each in walk order; with a helper, a share's findings come
 * before its verdicts rather than between them.
 */
export interface TreeCheckSink {
  /** Each skill's verdict, in walk order. */
  skill(checked: CheckedSkill): void;
  /** Findings of the walk itself (limits, loops, unreadable folders), in walk order. */
  diagnostic(diagnostic: Diagnostic): void;
  /** The root itself cannot be listed: told here instead of as a finding, when given. */
  rootProblem?(problem: string): void;
}

/** How many of the root's folders make a share: a few milliseconds of work. */
export const SHARE_SIZE = 64;

function visitorFor(
  fs: SkillFileSystem,
  job: TreeCheckJob,
  yaml: YamlSource | undefined,
  onSkill: (checked: CheckedSkill) => void,
  onDiagnostic: (diagnostic: Diagnostic) => void,
): WalkVisitor {
  // Each skill file is read once, as the walk finds it, with the cap the reader uses.
  const reading = readingWalk(fs, {
    maxBytes: { ...DEFAULT_READ_LIMITS, ...job.check.limits }.maxSkillFileBytes,
  });
  const check = yaml === undefined ? job.check : { ...job.check, yaml };
  return {
    skill: (found) => onSkill({ found, check: checkSkillDirectory(reading.fs, found, check) }),
    diagnostic: onDiagnostic,
    list: reading.list,
    children: reading.children,
  };
}

/**
 * Walks and checks one share of the root's folders, as a walk of its own (counting from zero):
 * what a helper thread runs, and what this thread runs of the shares it claims.
 */
export function walkShare(
  fs: SkillFileSystem,
  job: SharedTreeJob,
  index: number,
  yaml?: YamlSource,
): WalkShare {
  const skills: CheckedSkill[] = [];
  const diagnostics: Diagnostic[] = [];
  // A share is a few dozen folders: not worth reading ahead.
  const { children: _, ...visitor } = visitorFor(
    fs,
    job,
    yaml,
    (checked) => skills.push(checked),
    (d) => diagnostics.push(d),
  );
  const walk = new TreeWalk(fs, visitor, job.walk);
  const start = index * job.shareSize;
  walk.visitChildren(job.root, job.realRoot, 0, job.children.slice(start, start + job.shareSize));
  return {
    index,
    skills,
    diagnostics,
    directories: walk.progress.directories,
    reported: [...walk.progress.reported],
    stopped: walk.progress.stopped,
  };
}

/**
 * Finds and checks every skill below `root`, giving each verdict and finding to `sink` in the
 * walk's order. With a helper, the root's folders are shared with another thread; the result
 * is the one walk's, limits included: a share that a limit could have cut short is walked again
 * here, from where the one walk would be.
 */
export function checkTree(
  fs: SkillFileSystem,
  root: string,
  job: TreeCheckJob & { readonly yaml?: YamlSource },
  sink: TreeCheckSink,
  helper?: TreeCheckHelper,
): { readonly skills: number; readonly directories: number } {
  const base = visitorFor(fs, job, job.yaml, sink.skill, sink.diagnostic);
  const list = base.list;
  const visitor: WalkVisitor =
    sink.rootProblem === undefined || list === undefined
      ? base
      : {
          ...base,
          list: (directory, skipNames) => {
            const listing = list(directory, skipNames);
            if (directory !== root || listing === undefined || !('problem' in listing))
              return listing;
            sink.rootProblem?.(listing.problem);
            return undefined;
          },
        };
  const walk = new TreeWalk(fs, visitor, job.walk);
  const folders = walk.open(root);
  const counts = () => ({
    skills: walk.progress.skills,
    directories: walk.progress.directories,
  });
  if (folders === undefined) return counts();
  const { realRoot, children } = folders;
  const sharedJob: SharedTreeJob = {
    check: job.check,
    walk: job.walk,
    root,
    realRoot,
    children,
    shareSize: helper?.shareSize ?? SHARE_SIZE,
  };
  const { shareSize } = sharedJob;
  // A followed link may lead into another share's folders: only one walk can tell.
  const shares =
    walk.limits.followSymlinks || walk.progress.stopped ? undefined : helper?.start(sharedJob);
  if (shares === undefined) {
    walk.visitChildren(root, realRoot, 0, children, folders.listed);
    return counts();
  }
  const count = Math.ceil(children.length / shareSize);
  const ready = new Map<number, WalkShare>();
  const { progress, limits } = walk;
  let next = 0;
  // A share the helper sent; one walked here in the meantime is already done.
  const keep = (share: WalkShare | undefined): boolean => {
    if (share === undefined) return false;
    if (share.index >= next) ready.set(share.index, share);
    return true;
  };
  const takeSent = () => {
    while (keep(shares.take(false))) {
      // each share sent so far, without waiting
    }
  };
  // The shares in order, as the one walk would have given them; false once it took over.
  const flush = (): boolean => {
    for (let share = ready.get(next); share !== undefined; share = ready.get(next)) {
      ready.delete(next);
      if (
        share.stopped ||
        progress.skills + share.skills.length >= limits.maxSkills ||
        progress.directories + share.directories > limits.maxDirectories
      ) {
        // A limit may fall inside this share: the one walk goes on from here.
        shares.close();
        walk.visitChildren(root, realRoot, 0, children.slice(next * shareSize));
        next = count;
        return false;
      }
      for (const diagnostic of share.diagnostics) {
        // A code reported once is reported by the first share that has it.
        if (share.reported.includes(diagnostic.code) && progress.reported.has(diagnostic.code))
          continue;
        sink.diagnostic(diagnostic);
      }
      for (const code of share.reported) progress.reported.add(code);
      for (const skill of share.skills) sink.skill(skill);
      progress.skills += share.skills.length;
      progress.directories += share.directories;
      next += 1;
    }
    return true;
  };
  try {
    while (next < count) {
      takeSent();
      if (!flush() || next >= count) break;
      const mine = shares.claim();
      if (mine < count) {
        ready.set(mine, walkShare(fs, sharedJob, mine, job.yaml));
        continue;
      }
      // Nothing left to claim: the next share is the helper's. One it never sends is walked here.
      if (!ready.has(next) && !keep(shares.take(true)))
        ready.set(next, walkShare(fs, sharedJob, next, job.yaml));
    }
  } finally {
    shares.close();
  }
  return counts();
}
