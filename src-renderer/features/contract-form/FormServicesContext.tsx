import { createContext, useContext, type ReactNode } from 'react';
import type { FormServices } from './types';

// Fields reach the core (or a test's fakes) through this context, never through the store, so
// the same components serve every screen that hosts the form.

const FormServicesContext = createContext<FormServices | null>(null);

export function FormServicesProvider({ services, children }: { services: FormServices; children: ReactNode }) {
  return <FormServicesContext.Provider value={services}>{children}</FormServicesContext.Provider>;
}

/** The services of the nearest provider; a field rendered without one is a programming error. */
export function useFormServices(): FormServices {
  const services = useContext(FormServicesContext);
  if (!services) throw new Error('useFormServices needs a FormServicesProvider above the form');
  return services;
}

export { FormServicesContext };
