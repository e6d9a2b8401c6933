import './zod-config';
import '@blueprintjs/core/lib/css/blueprint.css';
import '@blueprintjs/icons/lib/css/blueprint-icons.css';
import '@blueprintjs/datetime/lib/css/blueprint-datetime.css';
import '@fontsource-variable/noto-sans-sc';
import './app/app.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { languageForLocale } from '../src-shared/i18n/languages';
import { connectStore } from './api/connectStore';
import { App } from './app/App';
import { createAppStore } from './app/store';
import { selectTransport } from './bridge/transport';
import { initI18n } from './i18n/i18n';

// The browser's locale is a first guess; LanguageGate settles the language once the core answers.
initI18n(languageForLocale(navigator.language));

const transport = selectTransport();
const store = createAppStore(transport.bridge);
connectStore(store, transport);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element.');
createRoot(container).render(
  <StrictMode>
    <App store={store} />
  </StrictMode>,
);
