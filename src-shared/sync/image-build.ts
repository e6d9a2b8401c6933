// The messages between the contract server and the core's image builder, which the server runs
// on a worker thread (src-main/core/replica-image/worker.ts): the server hands it the packed pages
// of a user's first sync as the feed stream would send them, and gets the compressed image back.

export type ImageBuildRequest =
  /** One packed page, as one line of the feed stream. */
  | { kind: 'page'; line: string }
  /** The pages are all in: end the replica as a first sync ends, and compress it. */
  | { kind: 'finish'; userId: string; builtAt: string };

export type ImageBuildAnswer =
  | { kind: 'done'; body: Uint8Array; sha256: string; replicaVersion: number; rawBytes: number; changes: number; cursor: string }
  | { kind: 'failed'; message: string };

/** What a worker is started with. */
export interface ImageBuildSetup {
  /** The client migrations the image is built with (the desktop's own). */
  migrationsDir: string;
  /** A folder of its own for the image's files while it is built. */
  workDir: string;
}
