import { readFile } from 'node:fs/promises';

/** Resident memory of a process in MB, from /proc/<pid>/status (VmRSS); undefined when unreadable. */
export async function residentMb(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  try {
    const text = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(text)?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}
