/** Past this many refs a RefMap becomes a Map: a search through the pairs would cost more than the Map's memory. */
export const SMALL_REFS = 8;

/**
 * A map from ref to value, oldest first, for a socket's remembered answers. Most sockets
 * remember one to four answers (an idle phone's last heartbeats); a Map costs ~250 bytes however
 * few it holds, so a few refs live as pairs in one array (~60 bytes) and only a busy socket's
 * grow into a Map. Setting a ref already there keeps its place, as in a Map.
 */
export class RefMap<V> {
  /** [ref, value, ref, value, …] while small; null once a Map. */
  private pairs: (string | V)[] | null = null;
  private map: Map<string, V> | null = null;

  get size(): number {
    return this.map ? this.map.size : (this.pairs?.length ?? 0) / 2;
  }

  get(ref: string): V | undefined {
    if (this.map) return this.map.get(ref);
    const i = this.indexOf(ref);
    return i < 0 ? undefined : (this.pairs![i + 1] as V);
  }

  set(ref: string, value: V): void {
    if (this.map) {
      this.map.set(ref, value);
      return;
    }
    const i = this.indexOf(ref);
    if (i >= 0) {
      this.pairs![i + 1] = value;
      return;
    }
    if (this.pairs === null) {
      this.pairs = [ref, value];
      return;
    }
    if (this.pairs.length < SMALL_REFS * 2) {
      this.pairs.push(ref, value);
      return;
    }
    const map = new Map<string, V>();
    this.forEach((v, r) => map.set(r, v));
    map.set(ref, value);
    this.map = map;
    this.pairs = null;
  }

  delete(ref: string): void {
    if (this.map) {
      this.map.delete(ref);
      return;
    }
    const i = this.indexOf(ref);
    if (i >= 0) this.pairs!.splice(i, 2);
  }

  /** Takes the oldest entry out and gives it; undefined when empty. */
  shift(): [string, V] | undefined {
    if (this.map) {
      const first = this.map.entries().next();
      if (first.done) return undefined;
      this.map.delete(first.value[0]);
      return first.value;
    }
    if (!this.pairs?.length) return undefined;
    const [ref, value] = this.pairs.splice(0, 2);
    return [ref as string, value as V];
  }

  /** Oldest first. */
  forEach(each: (value: V, ref: string) => void): void {
    if (this.map) {
      this.map.forEach(each);
      return;
    }
    const pairs = this.pairs ?? [];
    for (let i = 0; i < pairs.length; i += 2) each(pairs[i + 1] as V, pairs[i] as string);
  }

  private indexOf(ref: string): number {
    const pairs = this.pairs;
    if (pairs === null) return -1;
    for (let i = 0; i < pairs.length; i += 2) if (pairs[i] === ref) return i;
    return -1;
  }
}
