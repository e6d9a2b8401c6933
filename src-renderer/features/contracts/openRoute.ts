import { showFailure } from '../../app/toaster';
import { preloadBridge } from '../../bridge/transport';
import { errorText } from '../../i18n/errorText';
import { i18n } from '../../i18n/i18n';

/**
 * Opens one of the app's routes where the spec says (spec 2: a new tab for the ledger's 'view',
 * the create action and the duplicate-number 'view'). The desktop app asks its shell for a new
 * window and stays where it is, also when the shell refuses (a refusal is shown, nothing moves:
 * the cooperation 'view' must not drop unsaved edits). A browser may refuse a new tab (pop-up
 * blocking), and then the web edition opens the route in the same window instead, so the action
 * never does nothing.
 */
export function openRoute(path: string, navigate: (path: string) => void, options?: { newWindow?: boolean }): void {
  if (options?.newWindow) {
    const openWindow = preloadBridge()?.openWindow;
    if (openWindow) {
      void openWindow(path).then((result) => {
        if (!result.ok) showFailure(errorText(i18n.t, result.error));
      });
      return;
    }
    // Not the 'noopener' feature: with it window.open always answers null, hiding a refusal.
    const opened = window.open(path, '_blank');
    if (opened) {
      opened.opener = null;
      return;
    }
  }
  navigate(path);
}
