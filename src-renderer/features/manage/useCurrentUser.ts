import type { User } from '../../../src-shared/domain/user';
import { useSessionQuery } from '../../api/api';

/** The signed-in user (the management screens are only reachable signed in), or null while loading. */
export function useCurrentUser(): User | null {
  const { data } = useSessionQuery();
  return data?.signedIn ? data.user : null;
}
