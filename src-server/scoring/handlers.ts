import { v7 as uuidv7 } from 'uuid';
import type { scoringEndpoints } from '../../src-shared/api/scoring';
import type { ServerDb } from '../db/database';
import { basedOnVersion } from '../http/write-safety';
import type { FeatureHandlers } from '../http/routes';
import { getScoreDetail, submitScore } from './repository';

export function scoringHandlers(db: ServerDb, now: () => Date): FeatureHandlers<typeof scoringEndpoints> {
  return {
    scoreDetail: async ({ user, params }) => getScoreDetail(db, user, params.id),
    scoreSubmit: async ({ user, params, body, headers }) =>
      submitScore(db, user, params.id, { ...body, version: basedOnVersion(body.version, headers) }, uuidv7, now()),
  };
}
