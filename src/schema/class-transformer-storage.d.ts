// class-transformer ships the JS of its metadata storage under cjs/ and the types under types/.
declare module 'class-transformer/cjs/storage' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage';
}
