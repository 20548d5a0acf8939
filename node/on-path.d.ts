// Types of node/on-path.js for the TypeScript that imports it.
export function onPathOf(env: NodeJS.ProcessEnv): (program: string) => boolean;
