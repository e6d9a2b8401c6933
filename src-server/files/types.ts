import type { acceptedExtensions } from '../../src-shared/api/files';

// What each accepted extension's content must look like: the first bytes are sniffed, so a file
// renamed to another extension is refused.

type Extension = (typeof acceptedExtensions)[number];

const startsWith = (signature: number[]) => (head: Buffer) => signature.every((byte, i) => head[i] === byte);
const pdf = startsWith([0x25, 0x50, 0x44, 0x46, 0x2d]); // %PDF-
const zip = startsWith([0x50, 0x4b, 0x03, 0x04]); // PK.. (OOXML documents are zip archives)
const ole = startsWith([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]); // legacy Office
const png = startsWith([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const jpeg = startsWith([0xff, 0xd8, 0xff]);
const gif = (head: Buffer) => head.subarray(0, 6).toString('latin1') === 'GIF87a' || head.subarray(0, 6).toString('latin1') === 'GIF89a';
/** Plain text: no NUL byte and no known binary signature in the first bytes. */
const text = (head: Buffer) => !head.includes(0) && ![pdf, zip, ole, png, jpeg, gif].some((binary) => binary(head));

export const fileTypes: Record<Extension, { mimeType: string; matches: (head: Buffer) => boolean }> = {
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
