// The Inversify glue a user sees: the container a toolkit resolves services from, and presets read
// from it.
export type { ToolkitContainer } from './services';
export { fromContainer, type ContainerPreset } from './container-preset';
