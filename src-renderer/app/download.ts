// Offers bytes or text as a file download: the browser edition's way to write a file, and in the
// desktop app Electron's download asks where to save it.
export function downloadFile(content: BlobPart, name: string, type: string): void {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  URL.revokeObjectURL(url);
}

/** Bytes the core sent as base64 (pieces of a file read over the bridge). */
function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** A file the core holds, read piece by piece (`read(offset)` answers a base64 piece and the whole size); stops early once `live` says so. */
export async function readInPieces(read: (offset: number) => Promise<{ data: string; size: number }>, live: () => boolean = () => true): Promise<Uint8Array<ArrayBuffer>> {
  const first = await read(0);
  const bytes = new Uint8Array(first.size);
  const head = fromBase64(first.data);
  bytes.set(head);
  for (let offset = head.length; offset < first.size && live(); ) {
    const piece = fromBase64((await read(offset)).data);
    if (piece.length === 0) break;
    bytes.set(piece, offset);
    offset += piece.length;
  }
  return bytes;
}
