import type { ReplicaFeatures } from './data/replica-features';
import { contractsReplica } from './contracts';
import { performanceReplica } from './performance';
import { ledgerReplica } from './ledger';
import { scoringMutations } from './scoring';

// What every feature plugs into the replica's sync machinery. The target type makes a mutation
// kind or a pulled entity that no feature handles a type error.
export const replicaFeatures: ReplicaFeatures = {
  mutations: { ...contractsReplica.mutations, ...performanceReplica.mutations, ...ledgerReplica.mutations, ...scoringMutations },
  pulled: { ...contractsReplica.pulled, ...performanceReplica.pulled, ...ledgerReplica.pulled },
  overlays: { ...contractsReplica.overlays, ...performanceReplica.overlays, ...ledgerReplica.overlays },
};
