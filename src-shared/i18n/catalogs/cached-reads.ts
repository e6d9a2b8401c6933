// A management screen's server read shown from the replica while offline (issue 15).
export const cachedReadsEn = {
  asOf: 'Offline: as last read on {{time}}.',
  neverRead: 'This needs the contract server, and this device has not read it before.',
};

export const cachedReadsZh: typeof cachedReadsEn = {
  asOf: '离线：显示 {{time}} 读取的数据。',
  neverRead: '此处需要连接合同服务器，本设备此前未读取过。',
};
