/** The global the Electron preload exposes the bridge under (`window.contractDesk`). Kept free of
 * imports so the sandboxed preload bundle stays tiny. */
export const bridgeGlobalName = 'contractDesk';
