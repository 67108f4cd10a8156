import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Me, Role } from './server-types';

const RANK: Record<Role, number> = { viewer: 0, admin: 1, owner: 2 };

export const MeContext = createContext<{ me: Me; setMe: (m: Me | null) => void } | null>(null);

export function useMe() {
  const ctx = useContext(MeContext);
  if (!ctx) throw new Error('useMe outside a signed-in page');
  return { ...ctx, can: (role: Role) => RANK[ctx.me.role] >= RANK[role] };
}
