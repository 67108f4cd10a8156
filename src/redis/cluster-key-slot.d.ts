// cluster-key-slot (the CRC16 ioredis itself routes by) ships no types.
declare module 'cluster-key-slot' {
  /** The Redis Cluster hash slot (0–16383) of a key, honouring its {hash tag}. */
  export default function calculateSlot(key: string): number;
}
