// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { afterEach, describe, expect, it } from 'vitest';
import { ContractStatus } from '../../src-shared/domain/enums';
import { createAppStore } from '../../src-renderer/app/store';
import { ArchiveDialog } from '../../src-renderer/features/archive/ArchiveDialog';
import { i18n, initI18n } from '../../src-renderer/i18n/i18n';
import { fakeBridge, Refusal } from './support/fake-bridge';

// The archive dialog refusing a file that is not a PDF (issue 31): one message, in the user's
// language, from the refusal's reason; no English after it and no second "cannot open" under it.

initI18n('zh-CN');
afterEach(cleanup);
// jsdom's files have no arrayBuffer(): read through its FileReader instead.
Blob.prototype.arrayBuffer ??= function (this: Blob) {
  return new Promise<ArrayBuffer>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.readAsArrayBuffer(this);
  });
};

describe('the archive upload of a wrong file', () => {
  it('says once, in Chinese, that the format is not supported', async () => {
    await i18n.changeLanguage('zh-CN');
    const { bridge } = fakeBridge({
      'files.uploadBegin': () => new Refusal({ code: 'bad_request', message: 'The current file format is not supported', reason: { key: 'fileFormatNotSupported' } }),
    });
    render(
      <Provider store={createAppStore(bridge)}>
        <I18nextProvider i18n={i18n}>
          <ArchiveDialog contract={{ id: 'c-1', name: '钢材采购合同', status: ContractStatus.Approved }} onClose={() => undefined} />
        </I18nextProvider>
      </Provider>,
    );
    const input = document.querySelector<HTMLInputElement>('[data-testid=archive-file-input] input[type=file]')!;
    fireEvent.change(input, { target: { files: [new File(['not a pdf'], 'scan.png', { type: 'image/png' })] } });
    const error = await screen.findByTestId('archive-upload-error');
    expect(error.textContent).toBe('当前文件格式不支持');
    // The refused file is not opened as a PDF: no "cannot open" follows.
    await expect(screen.findByText('无法打开归档 PDF。', undefined, { timeout: 1500 })).rejects.toThrow();
    const dialog = document.querySelector('.archive-dialog')!.textContent ?? '';
    expect(dialog).not.toMatch(/请求格式错误|无法打开归档|The current file format/);
  });
});
