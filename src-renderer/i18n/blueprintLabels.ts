import { useEffect } from 'react';

/**
 * Blueprint's dialogs and drawers name their close button "Close", in English, whatever the UI
 * language (the label is fixed in the library). The button is given the catalog's word instead,
 * as each opens and whenever the language changes (issue 31: no English in the Chinese UI).
 */
export function useBlueprintCloseLabel(label: string): void {
  useEffect(() => {
    const relabel = () => {
      for (const button of document.querySelectorAll('.bp6-dialog-close-button')) {
        if (button.getAttribute('aria-label') !== label) button.setAttribute('aria-label', label);
      }
    };
    relabel();
    const observer = new MutationObserver(relabel);
    observer.observe(document.body, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [label]);
}
