import { syncProtocolVersion, syncSchemaVersion } from '../../src-shared/api/sync';
import { AppFailure } from '../../src-shared/errors';

function unsupported(field: 'protocolVersion' | 'schemaVersion', given: number, supported: number): AppFailure {
  const message = `unsupported sync ${field} ${given}: this server speaks ${field} ${supported}`;
  return new AppFailure('bad_request', message, [{ path: field, message }]);
}

/** Every push and pull names the versions it speaks (architecture, sync rule 9); others get a 400. */
export function checkSyncVersions(request: { protocolVersion: number; schemaVersion: number }): void {
  if (request.protocolVersion !== syncProtocolVersion) throw unsupported('protocolVersion', request.protocolVersion, syncProtocolVersion);
  if (request.schemaVersion !== syncSchemaVersion) throw unsupported('schemaVersion', request.schemaVersion, syncSchemaVersion);
}
