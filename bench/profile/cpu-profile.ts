// The parts of V8's .cpuprofile (node --cpu-prof) that the summary and the flame graph read.

export interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

export interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  hitCount?: number;
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code lives, short: `src/...`, `node_modules/<package>`, `node:...`, or `(native name)`. */
export function fileOf(f: CallFrame): string {
  const path = f.url.replace(/^file:\/\//, '').replace(/.*\/(node_modules\/[^/]+|src\/.*|bench\/.*|dist\/.*)$/, '$1');
  return path || `(${f.functionName || 'native'})`;
}

/** `name file:line`; native frames and V8's own entries, which have no file, by name alone. */
export function frameLabel(f: CallFrame): string {
  if (!f.url) return f.functionName || '(native)';
  return `${f.functionName || '(anonymous)'} ${fileOf(f)}:${f.lineNumber + 1}`;
}

/** Milliseconds of samples that landed in each node itself (not its callees). */
export function selfMsByNode(profile: CpuProfile): Map<number, number> {
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  return self;
}
