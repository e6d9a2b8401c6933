import { connectReplicaFile, type ReplicaConnection } from '../../src-main/core/data/replica';
import { derivedKey, fileKeyWrapper, readReplicaKey } from '../../src-main/core/vault/replica-keys';

/** The database key of a replica a test core (whose keys are kept in plain key files) made. */
export function replicaDatabaseKey(replicaPath: string): Buffer {
  const read = readReplicaKey(replicaPath, fileKeyWrapper);
  if (read.state !== 'present') throw new Error(`the replica ${replicaPath} has no readable key (${read.state})`);
  return derivedKey(read.key, 'database');
}

/** Opens a (closed) core's replica file with its key, to look inside or change it behind the core's back. */
export function openKeptReplica(replicaPath: string, options: { readonly?: boolean } = {}): ReplicaConnection {
  return connectReplicaFile(replicaPath, replicaDatabaseKey(replicaPath), options);
}
