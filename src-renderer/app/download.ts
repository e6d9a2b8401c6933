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
