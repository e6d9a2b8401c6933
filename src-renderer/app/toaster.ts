import { OverlayToaster, type Toaster } from '@blueprintjs/core';

let toaster: Promise<Toaster> | undefined;

/** A short-lived notice for a failed action (the screen itself stays as it was). */
export function showFailure(message: string): void {
  toaster ??= OverlayToaster.create({ position: 'top' });
  void toaster.then((instance) => instance.show({ message, intent: 'danger', icon: 'error' }));
}
