// The preload's AppApi is the shared one (common/api.ts) over IPC; the raw IPC object never reaches the page.
export { createApi, type Invoke, type Subscribe } from '../common/api';
