import { OverlayToaster, type ToastProps, type Toaster } from '@blueprintjs/core';

let toaster: Promise<Toaster> | undefined;

function show(props: ToastProps): void {
  toaster ??= OverlayToaster.create({ position: 'top' });
  void toaster.then((instance) => instance.show(props));
}

/** A short-lived notice for a failed action (the screen itself stays as it was). */
export function showFailure(message: string): void {
  show({ message, intent: 'danger', icon: 'error' });
}

/** A short-lived notice that an action was done (e.g. saved on this device, sent later). */
export function showNotice(message: string): void {
  show({ message, intent: 'success', icon: 'tick' });
}

/** A notice that stays until the user closes it: something they must know happened (their local data was rebuilt). */
export function showWarning(message: string): void {
  show({ message, intent: 'warning', icon: 'warning-sign', timeout: 0 });
}

/**
 * Dismisses every notice and waits for their exit transitions: the toaster renders outside the
 * screens' tree, so a test environment torn down under a notice's timers would see them fire late.
 */
export async function clearNotices(): Promise<void> {
  if (!toaster) return;
  (await toaster).clear();
  await new Promise((resolve) => setTimeout(resolve, 500));
}
