import { describe, expect, it } from 'vitest';

// The registry holds every field, and fields that draw sub-fields (clauses) get it from the
// engine's context, not by importing it: with an import of it there, loading the complex fields
// first left the registry without them (an import cycle), which only the built app showed.

describe('field registry import order', () => {
  it('holds the complex fields however the modules are first loaded', async () => {
    const { complexFields } = await import('../../../src-renderer/features/contract-form/fields/complex');
    const { fieldComponents } = await import('../../../src-renderer/features/contract-form/fields/registry');
    expect(Object.keys(complexFields).length).toBeGreaterThan(0);
    for (const [type, component] of Object.entries(complexFields)) expect(fieldComponents[type as keyof typeof fieldComponents]).toBe(component);
  });
});
