// Settings → Devices: the chat bridges' state, pairing a phone, the paired phones (docs/remote.md).
import type { StateCreator } from 'zustand/vanilla';
import type { AppState, DevicesSlice, SliceDeps } from './types';

export const createDevicesSlice =
  ({ api }: SliceDeps): StateCreator<AppState, [], [], DevicesSlice> =>
  (set, get) => ({
    remoteStatus: null,
    devices: [],
    pairing: null,
    devicesError: null,
    async loadDevices() {
      const [status, devices] = await Promise.all([api.getRemoteStatus(), api.listDevices()]);
      set({ remoteStatus: status.ok ? status.value : null, devices: devices.ok ? devices.value : [], devicesError: status.ok ? (devices.ok ? null : devices.error.message) : status.error.message });
    },
    async startPairing() {
      const r = await api.pairDevice();
      set(r.ok ? { pairing: r.value, devicesError: null } : { pairing: null, devicesError: r.error.message });
    },
    endPairing() {
      set({ pairing: null });
    },
    async revokeDevice(id) {
      const r = await api.revokeDevice({ id });
      if (r.ok) get().onDeviceRevoked(r.value);
      else set({ devicesError: r.error.message });
      return r;
    },
    sendRemoteTest(bridge) {
      return api.sendRemoteTest({ bridge });
    },
    async configureRemote(change) {
      const r = await api.configureRemote(change);
      if (r.ok) set({ remoteStatus: r.value, devicesError: null });
      return r;
    },
    async storeRemoteToken(bridge, token) {
      const r = await api.setRemoteToken({ bridge, token });
      if (r.ok) await get().loadDevices();
      return r;
    },
    onDevicePaired(d) {
      // The code is used up once a phone pairs with it: the QR code goes away.
      set((s) => ({ devices: [d, ...s.devices.filter((x) => x.id !== d.id)], pairing: null }));
    },
    onDeviceRevoked(d) {
      set((s) => ({ devices: s.devices.filter((x) => x.id !== d.id) }));
    },
  });
