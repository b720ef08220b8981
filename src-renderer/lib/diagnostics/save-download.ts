/**
 * Hands a file main built to the person as a download: the browser's own save flow in web mode,
 * Electron's download handling in the desktop app. Nothing is written by the page itself.
 */
export function saveDownload(fileName: string, base64: string, mimeType: string): void {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const url = URL.createObjectURL(new Blob([bytes], { type: mimeType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its bytes once click() returns; a moment later the URL may go.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
