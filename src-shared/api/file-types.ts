import type { acceptedExtensions } from './files';

// What each accepted extension's content must look like: the first bytes are sniffed, so a file
// renamed to another extension is refused — by the server, and by the desktop at once, offline too.

type Extension = (typeof acceptedExtensions)[number];

const startsWith = (signature: number[]) => (head: Uint8Array) => signature.every((byte, i) => head[i] === byte);
const pdf = startsWith([0x25, 0x50, 0x44, 0x46, 0x2d]); // %PDF-
const zip = startsWith([0x50, 0x4b, 0x03, 0x04]); // PK.. (OOXML documents are zip archives)
const ole = startsWith([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]); // legacy Office
const png = startsWith([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const jpeg = startsWith([0xff, 0xd8, 0xff]);
const latin1 = (bytes: Uint8Array) => String.fromCharCode(...bytes);
const gif = (head: Uint8Array) => latin1(head.subarray(0, 6)) === 'GIF87a' || latin1(head.subarray(0, 6)) === 'GIF89a';
/** Plain text: no NUL byte and no known binary signature in the first bytes. */
const text = (head: Uint8Array) => !head.includes(0) && ![pdf, zip, ole, png, jpeg, gif].some((binary) => binary(head));

export const fileTypes: Record<Extension, { mimeType: string; matches: (head: Uint8Array) => boolean }> = {
  pdf: { mimeType: 'application/pdf', matches: pdf },
  doc: { mimeType: 'application/msword', matches: ole },
  docx: { mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', matches: zip },
  xls: { mimeType: 'application/vnd.ms-excel', matches: ole },
  xlsx: { mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', matches: zip },
  ppt: { mimeType: 'application/vnd.ms-powerpoint', matches: ole },
  pptx: { mimeType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation', matches: zip },
  png: { mimeType: 'image/png', matches: png },
  jpg: { mimeType: 'image/jpeg', matches: jpeg },
  jpeg: { mimeType: 'image/jpeg', matches: jpeg },
  gif: { mimeType: 'image/gif', matches: gif },
  txt: { mimeType: 'text/plain; charset=utf-8', matches: text },
  csv: { mimeType: 'text/csv; charset=utf-8', matches: text },
  zip: { mimeType: 'application/zip', matches: zip },
};

export function isAcceptedExtension(extension: string): extension is Extension {
  return Object.prototype.hasOwnProperty.call(fileTypes, extension);
}

/** How many leading bytes the sniffing looks at. */
export const sniffBytes = 4096;
