// CPU profiles of the local server's processes. Node writes one profile per thread, and a
// process run from source through tsx has a second thread (the ESM loader's hooks): with a fixed
// --cpu-prof-name both threads wrote the same file and the loader's, written last, won. So each
// process writes into its own folder under Node's default names (…<pid>.<thread id>.<seq>…), and
// the main thread's profile (thread id 0) is kept as <name>.cpuprofile.
import { readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** Node flags that profile a process named `name` into `dir`. */
export function cpuProfileFlags(dir: string, name: string): string[] {
  return ['--cpu-prof', `--cpu-prof-dir=${join(dir, name)}`];
}

const MAIN_THREAD_PROFILE = /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/;

/** After the processes exited: each `<dir>/<name>/` main-thread profile becomes `<dir>/<name>.cpuprofile`. */
export async function collectCpuProfiles(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const folder = join(dir, entry.name);
    const main = (await readdir(folder))
      .filter((f) => MAIN_THREAD_PROFILE.test(f))
      .sort()
      .at(-1);
    if (!main) continue;
    const target = join(dir, `${entry.name}.cpuprofile`);
    await rename(join(folder, main), target);
    await rm(folder, { recursive: true, force: true });
  }
}
