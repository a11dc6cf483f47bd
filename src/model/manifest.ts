import type { ContextType } from './execution-context';
import type { JsonSchema } from './json-schema';

/** How a parameter the model never sees is filled (`preset`: `@ToolParam({ preset: true })`, bound at registration). */
export type InjectedKind = 'emitter' | 'signal' | 'client' | 'context' | 'preset';

/** One parameter of a tool method, as the build-time generator saw it. */
export interface ManifestParam {
  /** The parameter's name in the source. */
  name: string;
  /** Its position in the method's parameter list. */
  index: number;
  /** True for `?` parameters and parameters with a default value. */
  optional: boolean;
  /** `model`: a visible parameter the model fills; `injected`: filled by the toolkit. */
  kind: 'model' | 'injected';
  /** For injected parameters: what fills it. */
  injected?: InjectedKind;
  /**
   * The class name of the declared type: of a context parameter, and of a model parameter
   * declared with a class (a DTO, `Date`; for arrays, the item class).
   */
  typeName?: string;
  /**
   * Where that class is exported from, as `<module>#<export>` (`./src/user.ts#UserContext`, a
   * path relative to the manifest's working directory, or `@acme/auth#UserContext`): the key of
   * its entry in {@link ToolManifest.types}. Absent for classes no module exports.
   */
  typeRef?: string;
  /** For a model parameter declared with a class: true when it is an array of that class. */
  array?: boolean;
  /** The JSDoc `@param` text. */
  description?: string;
  /** For model parameters: the exact JSON Schema of the type (no `$ref`s). */
  schema?: JsonSchema;
}

/** One `@Tool` method in the manifest. */
export interface ManifestMethod {
  /** The method's JSDoc description. */
  description?: string;
  /** Every parameter, in order. */
  params: ManifestParam[];
  /** The JSON Schema of the resolved return type, when it is expressible. */
  returns?: JsonSchema;
}

/** One class with `@Tool` methods. */
export interface ManifestClass {
  /** The source file, relative to the manifest's working directory. */
  file: string;
  /** Its tool methods by method name. */
  methods: Record<string, ManifestMethod>;
}

/**
 * The build-time manifest written by `toolwright-schema` and read by `new Toolkit({ manifest })`:
 * exact parameter names, optionality, schemas and JSDoc, keyed by class name and method name.
 */
export interface ToolManifest {
  /** The manifest format version. */
  version: 1;
  /** Always `toolwright-schema`. */
  generator: 'toolwright-schema';
  /** Tool classes by class name. */
  classes: Record<string, ManifestClass>;
  /**
   * The classes the parameters name, by {@link ManifestParam.typeRef}: written only in a manifest
   * module (`toolwright-schema … -o tools.manifest.ts`). Toolchains without decorator metadata
   * (esbuild, tsx, vitest) find DTO and context classes here.
   */
  types?: Readonly<Record<string, () => ContextType>>;
}
