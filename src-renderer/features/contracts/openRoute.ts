/**
 * Opens one of the app's routes where the spec says (spec 2: a new tab for the ledger's 'view',
 * the create action and the duplicate-number 'view'). The Electron shell turns window.open into
 * its own checked window; a browser may refuse a new tab (pop-up blocking), and then the web
 * edition opens the route in the same window instead, so the action never does nothing.
 */
export function openRoute(path: string, navigate: (path: string) => void, options?: { newWindow?: boolean }): void {
  if (options?.newWindow) {
    // Not the 'noopener' feature: with it window.open always answers null, hiding a refusal.
    const opened = window.open(path, '_blank');
    if (opened) {
      opened.opener = null;
      return;
    }
  }
  navigate(path);
}
